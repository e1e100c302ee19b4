package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// num formats a value with about three significant digits.
func num(v float64) string { return format.Num(v, 3) }

// summary formats a median with its interval like benchstat: "2371 ±3%".
func summary(s stats.Summary) string { return format.Median(s.N, s.Median, s.SpreadPct()) }

// metricTitle is "throughput (req/s)".
func metricTitle(m lab.Metric) string { return m.Label + " (" + m.Unit + ")" }

// LoadDesc describes the load of an experiment in one line.
func LoadDesc(l lab.Load) string {
	var parts []string
	switch l.Model {
	case lab.ModelOpen:
		parts = append(parts, fmt.Sprintf("open model, %s req/s", num(l.Rate)))
		if l.MaxInFlight > 0 {
			parts = append(parts, fmt.Sprintf("at most %d in flight", l.MaxInFlight))
		}
	case lab.ModelClosed:
		parts = append(parts, fmt.Sprintf("closed model, %d connections", l.Connections))
		if l.Think > 0 {
			parts = append(parts, "think "+l.Think.String())
		}
	case lab.ModelSearch:
		parts = append(parts, "search for the highest rate with "+l.Limit.String())
	case lab.ModelEfficiency:
		parts = append(parts, fmt.Sprintf("efficiency: open model at %.0f%% of the baseline's capacity (found by a search), CPU per request as the verdict", 100*l.EffectiveUtilisation()))
	default:
		parts = append(parts, string(l.Model)+" model")
	}
	if l.Duration > 0 {
		parts = append(parts, l.Duration.String()+" per trial")
	}
	if l.Warmup > 0 {
		parts = append(parts, "after "+l.Warmup.String()+" warm-up")
	}
	return strings.Join(parts, ", ")
}

// TargetDesc names the server under test, with the reference label.
func TargetDesc(t lab.TargetInfo) string {
	s := t.Binary
	if t.Version != "" {
		s = t.Version + " (" + t.Binary + ")"
	}
	if t.Reference {
		s += " — reference server (postgrest-mini), not PostgREST"
	}
	return s
}

// TargetRowDesc is the setup table's Target: the stack's target, or,
// when every variant ran a binary of its own (lab ab, --binary), those
// binaries by variant (baseline first), the stack's target named after
// them: a comparison of 13.0.8 with 14.17 must not read "Target:
// PostgREST 14.17".
func TargetRowDesc(run *lab.Run) string {
	var own []string
	for _, v := range run.Variants {
		if v.Binary == "" {
			return TargetDesc(run.Target)
		}
		ver := v.Version
		if ver == "" {
			ver = v.Binary
		}
		own = append(own, v.Name+": "+ver)
	}
	if len(own) == 0 {
		return TargetDesc(run.Target)
	}
	return strings.Join(own, "; ") + " (each variant's own binary; the stack's target, not run: " + TargetDesc(run.Target) + ")"
}

// HostDesc is "lab1: Test CPU (2 CPUs), 25.8 GB, Debian 12, kernel 6.1".
func HostDesc(h lab.Host) string {
	s := fmt.Sprintf("%s: %s (%d CPUs), %s RAM, %s, kernel %s", h.Hostname, h.CPUModel, h.CPUs, format.Bytes(float64(h.MemoryBytes)), h.OS, h.Kernel)
	if h.CgroupMode != "" {
		s += ", cgroup " + h.CgroupMode
	}
	return s
}

// trialCounts says how many valid trials each (variant, scenario) has:
// "10" when all agree, else "5–10".
func trialCounts(run *lab.Run) string {
	n := map[[2]string]int{}
	for _, t := range run.Trials {
		if t.Error == "" {
			n[[2]string{t.Variant, t.Scenario}]++
		}
	}
	lo, hi := math.MaxInt, 0
	for _, c := range n {
		lo, hi = min(lo, c), max(hi, c)
	}
	switch {
	case hi == 0:
		return "0"
	case lo == hi:
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// unmeasured says which side of a row has no valid trial ("no valid trial
// of m4": every one failed, e.g. crashed), "" when both have one: such a
// row is no verdict, whatever its p says.
func unmeasured(r stats.Row) string {
	var who []string
	if r.Baseline.N == 0 {
		who = append(who, r.BaselineName)
	}
	if r.Variant.N == 0 {
		who = append(who, r.VariantName)
	}
	if len(who) == 0 {
		return ""
	}
	return "no valid trial of " + strings.Join(who, " and ")
}

// outcomeWord is the verdict column: "better", "worse", "" for ~.
func outcomeWord(r stats.Row) string {
	if r.Outcome == stats.Same {
		return ""
	}
	return string(r.Outcome)
}
