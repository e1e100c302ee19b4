package calibration

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// compared reports whether the calibration compared designs.
func compared(res *calibrate.Result) bool {
	for _, r := range res.Rows {
		if r.Design != "" {
			return true
		}
	}
	return false
}

func designHead(res *calibrate.Result) string {
	if compared(res) {
		return fmt.Sprintf("%-12s", "design")
	}
	return ""
}

func designCell(res *calibrate.Result, r calibrate.Row) string {
	if compared(res) {
		return fmt.Sprintf("%-12s", r.Design)
	}
	return ""
}

// designVerdict says which design is the more sensitive per minute.
func designVerdict(ds []calibrate.DesignRow) string {
	best, factor, ok := calibrate.Best(ds)
	switch {
	case !ok:
		return "No design has an A/A run with a verdict: nothing to compare."
	case math.IsNaN(factor):
		return fmt.Sprintf("Only %s has a figure.", best.Design)
	}
	return fmt.Sprintf("More sensitive per minute: %s (the other needs %.1fx the minutes for the same MDE).", best.Design, factor)
}

func effectName(r calibrate.Row) string {
	if r.EffectPct == 0 {
		return "A/A"
	}
	return fmt.Sprintf("%g%%", r.EffectPct)
}

func injected(r calibrate.Row) string {
	if r.InjectUs == 0 {
		return "none"
	}
	if r.InjectUsMin > 0 {
		return fmt.Sprintf("%d–%d µs", r.InjectUsMin, r.InjectUs)
	}
	return fmt.Sprintf("%d µs", r.InjectUs)
}

func runsOf(r calibrate.Row) string {
	if r.Failed > 0 {
		return fmt.Sprintf("%d (+%d failed)", r.Runs, r.Failed)
	}
	return fmt.Sprint(r.Runs)
}

func rateOf(r calibrate.Row) string {
	if r.Runs == 0 {
		return "?"
	}
	return fmt.Sprintf("%d/%d = %.0f%% [%.0f..%.0f]", r.Hits, r.Runs, 100*r.Rate, 100*r.RateLo, 100*r.RateHi)
}

func pctOrQ(f float64, format string) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "?"
	}
	return fmt.Sprintf(format, f)
}

// trialsDesc is the design's rounds and order, or the orders compared.
func trialsDesc(res *calibrate.Result) string {
	if !compared(res) {
		return fmt.Sprintf("min %d, max %d per variant, %s order", res.Trials.Min, res.Trials.Max, res.Trials.Order)
	}
	var names []string
	for _, d := range calibrate.Designs(res.Rows) {
		names = append(names, string(d.Design))
	}
	return fmt.Sprintf("min %d, max %d per variant; designs compared, alternately: %s", res.Trials.Min, res.Trials.Max, strings.Join(names, ", "))
}

func setupRows(res *calibrate.Result) [][2]string {
	setup := [][2]string{
		{"Target", report.TargetDesc(res.Target)},
		{"Machine", report.HostDesc(res.Host)},
		{"Load", report.LoadDesc(res.Load)},
		{"Trials", trialsDesc(res)},
		{"Test", res.Design},
		{"Runs", runsDesc(res)},
		{"Injection", sizingDesc(res)},
		{"When", fmt.Sprintf("%s, took %s", res.Started.UTC().Format("2006-01-02 15:04 MST"), format.Elapsed(res.Finished.Sub(res.Started)))},
	}
	if len(res.Sources) == 0 {
		return setup
	}
	setup[1][0] = "Machine (first part)"
	setup[5][1] = fmt.Sprintf("%s, pooled from %d calibrations", calibrate.PlanText(res.AARuns, res.Effects), len(res.Sources))
	setup[6][1] = "sized in each part by its own baseline and probe: an effect is a share of that part's headline metric"
	setup[7] = [2]string{"When", fmt.Sprintf("%s to %s", res.Started.UTC().Format("2006-01-02 15:04 MST"), res.Finished.UTC().Format("2006-01-02 15:04 MST"))}
	for i, src := range res.Sources {
		setup = append(setup, [2]string{fmt.Sprintf("Part %d", i+1), sourceDesc(src)})
	}
	return setup
}

// sourceDesc is one pooled calibration: when, where, and how it sized.
func sourceDesc(s calibrate.Source) string {
	d := fmt.Sprintf("%s: %d runs, took %s; baseline %.0f req/s on %d CPUs", s.Started.UTC().Format("2006-01-02 15:04 MST"),
		s.Runs, format.Elapsed(s.Finished.Sub(s.Started)), s.Rate, s.CPUs)
	if s.Scale > 0 {
		d += fmt.Sprintf(", injections x%.2f by its probe", s.Scale)
	}
	if s.Stopped != "" {
		d += "; stopped early: " + s.Stopped
	}
	return d + " (" + s.Dir + ")"
}

// intro says what the table counts, for the design that ran.
func intro(res *calibrate.Result) string {
	sized := "sized to slow a CPU-bound run down by the effect"
	if res.Baseline.Efficiency {
		sized = "sized to raise the primary metric (server + database CPU per request) by the effect"
	}
	return "How often the design declares a difference: in A/A runs (the baseline against itself: a false positive) " +
		"and in A/A' runs where every request of A' carries injected CPU work " + sized +
		` (a detection, when the verdict is "worse"). Rates with 95% Wilson intervals. "Measured" is the mean change ` +
		"the runs saw, which can differ from the injected effect: the rest of the system answers the added work."
}

// runsDesc says the plan and the baseline that sized the injection.
func runsDesc(res *calibrate.Result) string {
	s := fmt.Sprintf("%s, interleaved; baseline %.0f req/s on %d CPUs", calibrate.PlanText(res.AARuns, res.Effects), res.Baseline.Rate, res.Baseline.CPUs)
	if res.Baseline.Efficiency {
		s += fmt.Sprintf(", %.0f µs server + database CPU per request", res.Baseline.CPUPerReq)
	}
	switch res.Injection {
	case calibrate.InjectDatabase:
		s += fmt.Sprintf("; injected in PostgreSQL by a pre-request function (%.4f µs a loop iteration; A calls one that does not spin)", res.BurnUsPerIteration)
	case calibrate.InjectServer:
		s += "; injected in postgrest-mini's handler (PGRST_LAB_INJECT_CPU_US)"
	}
	return s
}

// sizingDesc says how the injections were sized: by the model, or
// corrected by a probe run (with what it realised).
func sizingDesc(res *calibrate.Result) string {
	if res.Sizing == nil {
		return "sized by the model of the load (no probe run)"
	}
	return res.Sizing.String() + "; the measured change column gives what each effect realised"
}
