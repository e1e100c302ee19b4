package report

import (
	"bufio"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// mdGate writes the gate's decision, the summary's first line: failed
// (what fired), inconclusive (where a rule could not have seen a change
// of its own size) or passed (every rule could decide everywhere).
func mdGate(b *bufio.Writer, g *Gate) {
	rules := format.MdCode(g.Rules)
	switch g.Decision() {
	case gate.Failed:
		fmt.Fprintf(b, "**Gate %s: FAILED** — %d significant change(s) beyond it:\n\n", rules, len(g.Fired))
		for _, f := range g.Fired {
			fmt.Fprint(b, format.MdItem(format.MdEscape(f)))
		}
		fmt.Fprintln(b)
	case gate.Inconclusive:
		fmt.Fprintf(b, "**Gate %s: inconclusive** — no significant change beyond it, but on %d comparison(s) "+
			"this run could not have detected a change of the gate's size: its noise hides smaller changes (mde). "+
			"It neither passes nor fails; more rounds (--max-trials) or a quieter machine would decide.\n\n", rules, len(g.Blind))
		fmt.Fprintf(b, "<details><summary>Where the gate was blind</summary>\n\n")
		for _, l := range g.Blind {
			fmt.Fprint(b, format.MdItem(format.MdEscape(l)))
		}
		fmt.Fprintf(b, "\n</details>\n\n")
	default:
		fmt.Fprintf(b, "**Gate %s: passed** — no significant change beyond it, and every rule could have seen one of its size.\n\n", rules)
	}
}
