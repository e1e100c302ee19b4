package stats

import (
	"fmt"
	"slices"
)

// LinesReach says whether one comparison's per-line verdicts (a targets
// file's lines, Endpoint) could be reached: Holm's strictest step tests
// the smallest p-value at the look's threshold divided by the lines
// tested, and with N pairs (or N trials per variant) the test gives no
// p-value below MinP(N). Where it cannot, no line could have been found
// changed, however much it changed.
type LinesReach struct {
	Scenario, Variant string
	Lines             int     // lines tested (both variants answered them)
	N                 int     // pairs (Paired) or trials per variant
	Paired            bool    // the signed-rank test on per-round ratios
	Strict            float64 // Holm's strictest step: the look's threshold / Lines
	// Need is the fewest rounds whose look can decide a line: at the
	// design's threshold of that look (of a design stretched to that many
	// rounds, past trials.max), divided by Lines.
	Need int
}

// Reachable reports whether the strictest line's verdict can be reached.
func (l LinesReach) Reachable() bool { return Reachable(l.N, l.Strict, l.Paired) }

// Sentence says why no line could be decided, "" when one could.
func (l LinesReach) Sentence() string {
	if l.Reachable() {
		return ""
	}
	what := "trials per variant"
	if l.Paired {
		what = "pairs"
	}
	return fmt.Sprintf("%s, %s: no line could have been found changed, however much: with %d lines, Holm's strictest step tests at p <= %.2g, "+
		"below the smallest p-value %d %s give (%.2g); the lines need %d rounds or more (trials.max)",
		l.Scenario, l.Variant, l.Lines, l.Strict, l.N, what, MinP(l.N, l.Paired), l.Need)
}

// LinesReach is the reach of every comparison that has per-line
// verdicts, in the order of v.Endpoints.
func (v *Verdicts) LinesReach() []LinesReach {
	var out []LinesReach
	for _, e := range v.Endpoints {
		if !e.Tested {
			continue
		}
		i := slices.IndexFunc(out, func(l LinesReach) bool { return l.Scenario == e.Scenario && l.Variant == e.VariantName })
		if i >= 0 {
			out[i].Lines++
			continue
		}
		r := e.Row
		l := LinesReach{Scenario: e.Scenario, Variant: e.VariantName, Lines: 1, N: min(r.Baseline.N, r.Variant.N), Paired: r.Test == TestSignedRank}
		if l.Paired && r.Paired != nil {
			l.N = r.Paired.N
		}
		l.Strict = r.Threshold
		out = append(out, l)
	}
	for i := range out {
		l := &out[i]
		l.Strict /= float64(l.Lines)
		l.Need = roundsForLines(v.Design, l.Lines, l.Paired)
	}
	return out
}

// roundsForLines is the fewest rounds, from the design's first look, at
// whose look Holm's strictest step over lines is in the test's reach
// (the design stretched to that many rounds past its Max; at most 64).
func roundsForLines(d Design, lines int, paired bool) int {
	n := max(d.Min, 1)
	for ; n < 64; n++ {
		dd := d
		dd.Max = max(d.Max, n)
		if Reachable(n, dd.NominalAlpha(n)/float64(lines), paired) {
			break
		}
	}
	return n
}
