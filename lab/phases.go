package lab

import "github.com/pgrst-lab/pgrst-lab/lab/postgrest"

// ServerTiming is a trial's Server-Timing breakdown: per phase (jwt, parse,
// plan, transaction, response, in PostgREST's order) the mean, median and
// p99 over the measured answers that carried the header, and the same for
// their per-request sum (Total: the server's own time for a request).
// PostgREST rounds each phase to 0.1 ms.
type ServerTiming struct {
	Requests int64 // answers with a complete header
	Phases   []PhaseStat
	Total    PhaseStat
}

// VariantVersion is what a variant ran, as rules that depend on
// PostgREST's version read it: the `--version` of its own binary, else the
// target's, else its build's version ("" when none is known).
func VariantVersion(run *Run, variant string) string {
	for _, v := range run.Variants {
		if v.Name != variant {
			continue
		}
		switch {
		case v.Binary != "" && v.Version != "":
			return v.Version
		case v.Binary == "" && run.Target.Version != "":
			return run.Target.Version
		}
		return v.Build.Version
	}
	return run.Target.Version
}

// PhasesNotComparable says why the Server-Timing phases (the st_* metrics)
// of variant a in run ra and variant b in run rb are not compared, or ""
// when they measure the same clock (postgrest.PhaseClock: CPU time before
// PostgREST 14.2, wall clock from 14.2).
func PhasesNotComparable(ra *Run, a string, rb *Run, b string) string {
	return postgrest.PhaseClockNote(VariantVersion(ra, a), VariantVersion(rb, b))
}

// PhaseStat is one phase's figures, in milliseconds.
type PhaseStat struct {
	Name   string
	MinMs  float64
	MeanMs float64
	P50Ms  float64
	P99Ms  float64
}

// PhaseNames are the Server-Timing phases PostgREST 13 reports.
var PhaseNames = []string{"jwt", "parse", "plan", "transaction", "response"}

// PhasePrefix starts the names of the per-phase metrics
// (st_jwt ... st_response, st_total).
const PhasePrefix = "st_"

// phaseMetrics are the mean time of each Server-Timing phase and of their
// sum, compared like every other metric (known only when the target sent
// the header).
func phaseMetrics() []Metric {
	var out []Metric
	for i, name := range PhaseNames {
		out = append(out, Metric{PhasePrefix + name, "Server-Timing " + name + " (mean)", "ms", -1, func(t Trial) (float64, bool) {
			st := t.Load.ServerTiming
			if st == nil || st.Requests == 0 || len(st.Phases) <= i {
				return 0, false
			}
			return st.Phases[i].MeanMs, true
		}})
	}
	out = append(out, Metric{PhasePrefix + "total", "Server-Timing sum of phases (mean)", "ms", -1, func(t Trial) (float64, bool) {
		st := t.Load.ServerTiming
		if st == nil || st.Requests == 0 {
			return 0, false
		}
		return st.Total.MeanMs, true
	}})
	return out
}
