package report

import (
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// GateOf evaluates --gate's rules on a run's verdicts: the summary's Gate
// (its rules, what fired, where it was blind) and the firings themselves.
// The run's own `lab ab --markdown` and `lab report --format summary`
// (the trusted half of the fork-safe workflows) both render through it.
func GateOf(rules []gate.Rule, v *stats.Verdicts) (*Gate, []gate.Firing) {
	if rules == nil {
		return nil, nil
	}
	fired := gate.Evaluate(rules, v)
	g := &Gate{Rules: gate.String(rules)}
	for _, r := range rules {
		g.Metrics = append(g.Metrics, r.Metric)
	}
	for _, f := range fired {
		g.Fired = append(g.Fired, f.String())
	}
	for _, f := range gate.Blind(rules, v) {
		g.Blind = append(g.Blind, f.BlindString())
	}
	for _, r := range gate.Unmeasured(rules, v) {
		g.Blind = append(g.Blind, fmt.Sprintf("%s: no comparison of this run measured %s (%s)", r.Metric.Name, r.Metric.Label, r.Text))
	}
	return g, fired
}

// Decision is the gate's decision: failed, inconclusive or passed.
func (g *Gate) Decision() gate.Decision { return gate.Decide(len(g.Fired), len(g.Blind)) }

// GateText prints the gate's decision on a terminal: passed, inconclusive
// with where it was blind, or FAILED with what fired.
func GateText(w io.Writer, g *Gate) {
	switch g.Decision() {
	case gate.Passed:
		fmt.Fprintf(w, "gate %s: passed (no significant change beyond it; every rule could have seen one)\n", g.Rules)
		return
	case gate.Inconclusive:
		fmt.Fprintf(w, "gate %s: inconclusive (nothing fired, but this run could not have detected a change of the gate's size on %d comparison(s)):\n", g.Rules, len(g.Blind))
		for _, l := range g.Blind {
			fmt.Fprintf(w, "  %s\n", l)
		}
		return
	}
	fmt.Fprintf(w, "gate %s: FAILED\n", g.Rules)
	for _, f := range g.Fired {
		fmt.Fprintf(w, "  %s\n", f)
	}
}
