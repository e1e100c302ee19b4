package stats

import (
	"math"

	"golang.org/x/perf/benchmath"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Confidence is the confidence level of the intervals around medians.
const Confidence = 0.95

// NoiseLimit is the half-width of a median's confidence interval, as a
// fraction of the median, above which a row warns of high noise.
const NoiseLimit = 0.10

// Summary is a sample's median with its confidence interval. Lo and Hi are
// ±Inf when there are too few values for an interval at Confidence.
type Summary struct {
	Median float64
	Lo, Hi float64
	N      int
	// Values are the trials' values, sorted.
	Values []float64
}

// noValidTrials is Summarize's warning for no values; unmeasured rewords it
// where the values are missing for want of the metric, not of trials.
const noValidTrials = "no valid trials"

// Summarize computes the median and its confidence interval (benchmath,
// AssumeNothing) and returns benchmath's warnings as strings.
func Summarize(values []float64) (Summary, []string) {
	if len(values) == 0 {
		return Summary{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}, []string{noValidTrials}
	}
	vs := append([]float64(nil), values...)
	th := benchmath.DefaultThresholds
	s := benchmath.NewSample(vs, &th)
	sum := benchmath.AssumeNothing.Summary(s, Confidence)
	return Summary{Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, N: len(vs), Values: s.Values}, errStrings(sum.Warnings)
}

// Bounded reports whether the interval is finite.
func (s Summary) Bounded() bool {
	return !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && !math.IsNaN(s.Median)
}

// Noisy reports whether the median's interval is wider than ±NoiseLimit
// of the median (reports mark such cells and fold the warning into them).
func (s Summary) Noisy() bool { return s.Bounded() && s.SpreadPct() > 100*NoiseLimit }

// SpreadPct is the half-width of the confidence interval as a percentage
// of the median (like benchstat's "± x%"): the larger distance from the
// median to either bound. It is +Inf when the interval is unbounded and
// NaN when the median is 0.
func (s Summary) SpreadPct() float64 {
	if !s.Bounded() {
		return math.Inf(1)
	}
	if s.Median == 0 {
		if s.Lo == 0 && s.Hi == 0 {
			return 0
		}
		return math.NaN()
	}
	return 100 * math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
}

// valuesOf returns metric m of the trials, skipping failed trials and
// trials where the metric is unknown.
func valuesOf(trials []lab.Trial, m lab.Metric) []float64 {
	var vs []float64
	for _, t := range trials {
		if t.Error != "" {
			continue
		}
		if v, ok := m.Of(t); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			vs = append(vs, v)
		}
	}
	return vs
}

func errStrings(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}
