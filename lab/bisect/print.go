package bisect

import (
	"fmt"
	"io"
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Line is a step's measurement and decision on one line: "abc1234
// (subject): midpoint vs GOOD +0.4% (p=0.56), vs BAD -83.2% (p=0.031),
// BAD vs GOOD +495% (p=0.031), 6 rounds: old level: differs from BAD …".
func (s Step) Line() string {
	return fmt.Sprintf("%s: midpoint vs GOOD %s, vs BAD %s, BAD vs GOOD %s, %d rounds: %s: %s",
		s.Commit.Label(), change(s.VsGood), change(s.VsBad), change(s.Ends), s.Rounds, s.Level, s.Why)
}

// change is a row's change and p-value: "+495% (p=0.031)".
func change(r stats.Row) string {
	if r.Baseline.N == 0 || r.Variant.N == 0 {
		return "? (no valid trials)"
	}
	return fmt.Sprintf("%+.1f%% (p=%.3g)", r.DeltaPct, r.P)
}

// Print writes what the search found: the first commit with its subject
// (through textsafe), or why it cannot tell and the range the change is
// in; then the evidence, a row per step (the metric's median of each
// build in the step's rounds, each comparison's change and p-value, the
// decision), the commits skipped, and how many midpoints were measured.
func Print(w io.Writer, r *Result, m lab.Metric) {
	if c, ok := r.First(); ok {
		fmt.Fprintf(w, "first commit of the change: %s\n  %s\n", c.SHA, textsafe.CleanText(c.Subject))
	} else {
		why := r.Stopped
		if why == "" {
			why = "the search did not finish"
		}
		textsafe.Fprintf(w, "cannot tell the first commit: %s\n", why)
		fmt.Fprintf(w, "  the change is in %s..%s: one of %d commits after %s\n",
			lab.ShortCommit(r.Range[r.Lo].SHA), lab.ShortCommit(r.Range[r.Hi].SHA), r.Hi-r.Lo, r.Range[r.Lo].Label())
	}
	if len(r.Steps) > 0 {
		fmt.Fprintf(w, "evidence: %s (%s, %s), each midpoint against both ends in the same rounds (paired, sequential):\n", m.Name, m.Label, m.Unit)
		rows := [][]string{{"step", "commit", "GOOD", "midpoint", "BAD", "mid vs GOOD", "mid vs BAD", "BAD vs GOOD", "rounds", "decision"}}
		for i, s := range r.Steps {
			rows = append(rows, []string{strconv.Itoa(i + 1), s.Commit.Label(), format.Num(s.VsGood.Baseline.Median, 3),
				format.Num(s.VsGood.Variant.Median, 3), format.Num(s.VsBad.Baseline.Median, 3),
				change(s.VsGood), change(s.VsBad), change(s.Ends), strconv.Itoa(s.Rounds), string(s.Level)})
		}
		format.Columns(w, "  ", rows)
		for i, s := range r.Steps {
			if s.Dir != "" {
				textsafe.Fprintf(w, "  step %d's run: %s\n", i+1, s.Dir)
			}
		}
	}
	for _, s := range r.Skipped {
		textsafe.Fprintf(w, "  skipped %s: %v\n", s.Commit.Label(), s.Err)
	}
	fmt.Fprintf(w, "%d midpoint measurements (%d commits after GOOD: %d if every step decides)\n", len(r.Steps), len(r.Range)-1, StepsFor(len(r.Range)-1))
}
