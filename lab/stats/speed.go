package stats

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// SpeedAdjustment is how a paired row was adjusted for the machine's
// speed (see the package doc, "Speed adjustment").
type SpeedAdjustment struct {
	// Beta is the fitted slope of the metric's log-ratio on the speed
	// reference's log-ratio (about 1 when the metric follows the memory
	// system's speed one to one).
	Beta float64
	// Corr is the correlation of the two log-ratios over the rounds.
	Corr float64
	// RawP, RawSD and RawChangePct are the unadjusted signed-rank p-value,
	// standard deviation of the log-ratios and median change.
	RawP, RawSD, RawChangePct float64
}

// speedRef is the speed reference as a metric (lab.SpeedRefMetric).
var speedRef, _ = lab.MetricByName(lab.SpeedRefMetric)

// speedRefMovedP is the p-value below which a difference of the reference
// between the variants is taken as the variant's doing, not chance: the
// row is then compared unadjusted. Between it and alpha either is
// possible, and neither test alone is safe: falling back to the raw
// ratios exactly when the reference moved by chance would raise the
// false-positive rate (to 9.8 % at alpha = 0.05 in the synthetic A/A), and
// adjusting for a shift the variant caused could turn its effect around.
// So the row is significant only where both the raw and the adjusted
// ratios are, in the same direction (an intersection test: its
// false-positive rate is at most that of either).
const speedRefMovedP = 0.0001

// minSpeedPairs is the fewest pairs a slope is fitted on.
const minSpeedPairs = 5

// speedCheck is what the speed reference allows for one row.
type speedCheck int

const (
	speedNone     speedCheck = iota // no reference (or too few rounds): raw ratios
	speedAdjusted                   // adjusted ratios
	speedRaw                        // the variant moved the reference: raw ratios
	speedUnsure                     // moved, by chance or not: raw and adjusted must agree
)

// speedResult is what the speed reference did to one row's log-ratios.
type speedResult struct {
	adj   *SpeedAdjustment // set when check is speedAdjusted
	check speedCheck
	warn  string
	// alt is the analysis of the adjusted ratios when check is
	// speedUnsure (the row itself shows the raw ones).
	alt Paired
}

// verdictPairs returns the per-round log-ratios of m as a verdict tests
// them (see pairs), adjusted for the machine's speed when adjust is on and
// m is a CPU metric, and how many rounds had a value in either group.
func verdictPairs(base, vari []lab.Trial, m lab.Metric, adjust bool, alpha float64) ([]float64, int, speedResult) {
	lr, reps, rounds := pairs(base, vari, m)
	if !adjust || !m.SpeedAdjusted() {
		return lr, rounds, speedResult{}
	}
	adj, sa, check, warn := speedAdjust(base, vari, m, lr, reps, alpha)
	sr := speedResult{check: check, warn: warn}
	switch check {
	case speedAdjusted:
		lr, sr.adj = adj, sa
	case speedUnsure:
		sr.alt, _ = analysePairs(adj)
	}
	return lr, rounds, sr
}

// requireBoth keeps the verdict of row r (tested on the raw ratios) only
// where the adjusted ratios agree: significant too, in the same direction.
// Its p-value becomes the larger of the two (see speedRefMovedP). It
// returns what to say about it, "" when the rule changes nothing: when raw
// and adjusted agree (both significant in one direction, e.g. a change far
// beyond the machine's speed, or both not), the verdict is the same either
// way and a warning would help no one.
func (s speedResult) requireBoth(r *Row) string {
	if r.Paired == nil {
		return ""
	}
	rawSig := r.P <= r.Threshold
	altSig := s.alt.P <= r.Threshold
	r.P = math.Max(r.P, s.alt.P)
	agree := (s.alt.ChangePct > 0) == (r.Paired.ChangePct > 0) && s.alt.ChangePct != 0 && r.Paired.ChangePct != 0
	r.Significant = r.P <= r.Threshold && agree
	r.Outcome = outcome(*r, r.Metric)
	if r.Significant == rawSig && r.Significant == altSig {
		return ""
	}
	return fmt.Sprintf("%s (adjusted: %+.1f%%, p=%s)", r.Metric.Label, s.alt.ChangePct, pString(s.alt.P))
}

// speedUnsureWarning is the one warning of a comparison whose speed
// reference moved by chance or by the variant, naming the rows where that
// decided the verdict (requireBoth's notes).
func speedUnsureWarning(refP string, notes []string) string {
	verb := "counts"
	if len(notes) > 1 {
		verb = "count"
	}
	return fmt.Sprintf("the machine's speed reference differs between the variants (p=%s), by chance or by the variant: %s %s as changed only if both unadjusted and adjusted agree",
		refP, joinAnd(notes), verb)
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(ss []string) string {
	switch len(ss) {
	case 0:
		return ""
	case 1:
		return ss[0]
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

// speedAdjust returns the log-ratios lr (of metric m, measured in rounds
// reps) adjusted for the machine's speed: lr − β·s, where s is the speed
// reference's log-ratio in the same round and β the least-squares slope of
// lr on s. Unless the check is speedAdjusted or speedUnsure, adj is nil;
// unless it is speedAdjusted, sa is nil and the warning says why.
func speedAdjust(base, vari []lab.Trial, m lab.Metric, lr []float64, reps []int, alpha float64) (adj []float64, sa *SpeedAdjustment, check speedCheck, warn string) {
	if len(lr) < minSpeedPairs || len(lr) != len(reps) {
		return nil, nil, speedNone, ""
	}
	bs, vs := byRound(base, speedRef), byRound(vari, speedRef)
	x := make([]float64, len(reps))
	for i, r := range reps {
		b, v := bs[r], vs[r]
		if !(b > 0 && v > 0) {
			return nil, nil, speedNone, "" // a round without the reference
		}
		x[i] = math.Log(v / b)
	}
	beta, corr, ok := slope(x, lr)
	if !ok {
		return nil, nil, speedNone, ""
	}
	p := SignedRankP(x)
	if p <= speedRefMovedP {
		return nil, nil, speedRaw, fmt.Sprintf("the variant changed the machine's speed reference (p=%.2g): %s is compared unadjusted", p, m.Label)
	}
	// Each round is adjusted with the slope fitted without it (leave one
	// out), so that the slope's own error shows in the adjusted values'
	// spread: with the slope of all rounds the test would see too little
	// noise (6 % false positives instead of 5 % in the synthetic A/A).
	adj = make([]float64, len(lr))
	for i := range lr {
		b, ok := slopeWithout(x, lr, i)
		if !ok {
			b = beta
		}
		adj[i] = lr[i] - b*x[i]
	}
	if p <= alpha {
		return adj, nil, speedUnsure, pString(p)
	}
	raw, _ := analysePairs(lr)
	return adj, &SpeedAdjustment{Beta: beta, Corr: corr, RawP: raw.P, RawSD: raw.SD, RawChangePct: raw.ChangePct}, speedAdjusted, ""
}

// slope is the least-squares slope of y on x and their correlation; ok is
// false when x has no spread.
func slope(x, y []float64) (beta, corr float64, ok bool) {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxx, syy, sxy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	if sxx <= 0 {
		return 0, 0, false
	}
	beta = sxy / sxx
	if syy > 0 {
		corr = sxy / math.Sqrt(sxx*syy)
	}
	return beta, corr, true
}

// slopeWithout is slope(x, y) without the i-th point.
func slopeWithout(x, y []float64, i int) (float64, bool) {
	xs := append(append([]float64(nil), x[:i]...), x[i+1:]...)
	ys := append(append([]float64(nil), y[:i]...), y[i+1:]...)
	b, _, ok := slope(xs, ys)
	return b, ok
}

// SpeedNote says how the row was adjusted for the machine's speed, e.g.
// "speed-adjusted: unadjusted p=0.463, ±6.8%"; "" when it was not.
func (r Row) SpeedNote() string {
	p := r.Paired
	if p == nil || p.Speed == nil || r.Test != TestSignedRank {
		return ""
	}
	return fmt.Sprintf("speed-adjusted: unadjusted p=%.3f, %s", p.Speed.RawP, mdeText(MDEPct(p.Speed.RawSD, p.N, r.Threshold, true)))
}

// pString formats a p-value in three decimals, or two significant digits
// below 0.001.
func pString(p float64) string {
	if p < 0.001 {
		return fmt.Sprintf("%.2g", p)
	}
	return fmt.Sprintf("%.3f", p)
}
