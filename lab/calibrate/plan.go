package calibrate

import (
	"fmt"
	"strconv"
	"strings"
)

// Effect is one injected effect size and how many runs measure it.
type Effect struct {
	Pct  float64 `json:"effect_pct"`
	Runs int     `json:"runs"`
}

// MaxRuns bounds the runs of one effect (and of A/A).
const MaxRuns = 200

// ParseEffects reads "1,2,3x10,5,10": effects in percent (a trailing %
// allowed), each optionally followed by xN, its own number of runs;
// the others get runs. An effect named twice is an error.
func ParseEffects(s string, runs int) ([]Effect, error) {
	var out []Effect
	seen := map[float64]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		pct, count, hasCount := strings.Cut(f, "x")
		pct = strings.TrimSuffix(strings.TrimSpace(pct), "%")
		v, err := strconv.ParseFloat(pct, 64)
		if err != nil || !(v > 0 && v <= 50) {
			return nil, fmt.Errorf("%q is not an effect in (0, 50] percent (e.g. 3, or 3x10 for 10 runs of 3%%)", f)
		}
		n := runs
		if hasCount {
			n, err = strconv.Atoi(strings.TrimSpace(count))
			if err != nil || n < 1 || n > MaxRuns {
				return nil, fmt.Errorf("%q: the runs after x must be a number in 1..%d", f, MaxRuns)
			}
		}
		if seen[v] {
			return nil, fmt.Errorf("%q: effect %g%% is named twice", f, v)
		}
		seen[v] = true
		out = append(out, Effect{Pct: v, Runs: n})
	}
	return out, nil
}

// Planned is one run of a calibration: its effect (0 for A/A) and its
// number among that effect's runs (from 1).
type Planned struct {
	Effect float64
	N      int
}

// Schedule orders a calibration's runs: the first A/A run (it sizes the
// injection), then passes over A/A and every effect, each taking its next
// run while it has one left. Interleaving spreads the machine's drift
// (other work starting, thermal state) over all effect sizes alike, and a
// calibration stopped early still has every effect measured about equally.
func Schedule(aaRuns int, effects []Effect) []Planned {
	var out []Planned
	most := aaRuns
	for _, e := range effects {
		most = max(most, e.Runs)
	}
	for n := 1; n <= most; n++ {
		if n <= aaRuns {
			out = append(out, Planned{Effect: 0, N: n})
		}
		for _, e := range effects {
			if n <= e.Runs {
				out = append(out, Planned{Effect: e.Pct, N: n})
			}
		}
	}
	return out
}

// PlanText says a calibration's runs: "A/A ×1, 1% ×3, 3% ×10".
func PlanText(aaRuns int, effects []Effect) string {
	parts := []string{fmt.Sprintf("A/A ×%d", aaRuns)}
	for _, e := range effects {
		parts = append(parts, fmt.Sprintf("%g%% ×%d", e.Pct, e.Runs))
	}
	return strings.Join(parts, ", ")
}

// SoFar says the running tally of one effect: "3%: 4 of 5 runs detected
// it" or "A/A: 0 of 3 runs declared a difference".
func SoFar(outs []Outcome, effect float64) string {
	for _, r := range Tally(outs) {
		if r.EffectPct != effect {
			continue
		}
		if effect == 0 {
			return fmt.Sprintf("A/A: %d of %d runs declared a difference (false positives)", r.Hits, r.Runs)
		}
		return fmt.Sprintf("%g%%: %d of %d runs detected it", effect, r.Hits, r.Runs)
	}
	return ""
}
