package report

import (
	"bufio"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// PhaseTable is where the server's time goes in one scenario, per variant:
// the Server-Timing phases (the target's server-timing-enabled), each the
// median over trials of the phase's mean.
type PhaseTable struct {
	Phases []string
	Rows   []PhaseRow
	// Clock says what the durations are: wall time, or for PostgREST
	// before 14.2 CPU time of the whole process; for variants that differ,
	// that their phases are not compared.
	Clock string
}

// PhaseRow is one variant's breakdown, in ms; Moved names the phases whose
// change against the baseline is significant (the st_* verdicts), largest
// first.
type PhaseRow struct {
	Variant  string
	Baseline bool
	Ms       []float64
	TotalMs  float64
	Moved    string
}

// phaseClockCPU explains PostgREST's Server-Timing durations before 14.2.
const phaseClockCPU = "PostgREST before 14.2 times the phases with timeit-2.0, which reads the process's CPU time " +
	"(PostgREST#4522, fixed in 14.2): waiting for PostgreSQL does not count, and under concurrency a phase includes other requests' CPU. " +
	"Compare variants with it; do not read it as latency."

const phaseClockWall = "The phases are timed on the wall clock (PostgREST since 14.2, PostgREST#4522; postgrest-mini)."

const phaseClockUnknown = "The PostgREST version, and so what the phases measure, is not known: CPU time before 14.2, wall clock from 14.2 (PostgREST#4522)."

// phaseClockMixed says why variants' phases are not compared.
const phaseClockMixed = "The variants' PostgREST versions time the phases differently (CPU time before 14.2, wall clock from 14.2: PostgREST#4522): " +
	"their figures are shown side by side, without verdicts, where they differ."

// phaseClockText is the table's note for the clocks of the variants shown.
func phaseClockText(run *lab.Run, names []string) string {
	clocks := map[string]bool{}
	for _, n := range names {
		clocks[postgrest.PhaseClock(lab.VariantVersion(run, n))] = true
	}
	switch {
	case len(clocks) > 1:
		return phaseClockMixed
	case clocks[postgrest.ClockWall]:
		return phaseClockWall
	case clocks[postgrest.ClockCPU]:
		return phaseClockCPU
	}
	return phaseClockUnknown
}

// Phases returns the scenario's breakdown, or nil when no trial carried
// Server-Timing.
func Phases(run *lab.Run, v *stats.Verdicts, sc string) *PhaseTable {
	names := append([]string{v.Baseline}, v.Variants...)
	if v.Baseline == "" {
		names = stats.VariantNames(run)
	}
	pt := &PhaseTable{Phases: lab.PhaseNames, Clock: phaseClockText(run, names)}
	for _, name := range names {
		row := PhaseRow{Variant: name, Baseline: name == v.Baseline}
		known := false
		for _, ph := range append(slices.Clone(lab.PhaseNames), "total") {
			m, _ := lab.MetricByName(lab.PhasePrefix + ph)
			vals := ValuesOf(stats.TrialsOf(run, name, sc), m)
			med := math.NaN()
			if len(vals) > 0 {
				med, known = stats.Median(vals), true
			}
			if ph == "total" {
				row.TotalMs = med
			} else {
				row.Ms = append(row.Ms, med)
			}
		}
		if !known {
			continue
		}
		if !row.Baseline {
			row.Moved = movedPhases(v, sc, name)
			if note := lab.PhasesNotComparable(run, v.Baseline, run, name); note != "" && v.Baseline != "" {
				row.Moved = "no verdict: " + note
			}
		}
		pt.Rows = append(pt.Rows, row)
	}
	if len(pt.Rows) == 0 {
		return nil
	}
	return pt
}

// movedPhases lists the phases whose verdict is significant, by the size
// of the change of their median, e.g. "transaction -0.40 ms (-31%)".
func movedPhases(v *stats.Verdicts, sc, variant string) string {
	type moved struct {
		name    string
		diff    float64
		pct     float64
		outcome stats.Outcome
	}
	var ms []moved
	for _, r := range v.For(sc, variant) {
		ph, ok := strings.CutPrefix(r.Metric.Name, lab.PhasePrefix)
		if !ok || ph == "total" || !r.Significant {
			continue
		}
		ms = append(ms, moved{ph, r.Variant.Median - r.Baseline.Median, r.DeltaPct, r.Outcome})
	}
	if len(ms) == 0 {
		return "no phase changed significantly"
	}
	slices.SortFunc(ms, func(a, b moved) int { return cmp.Compare(math.Abs(b.diff), math.Abs(a.diff)) })
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%s %+.2f ms (%+.0f%%, %s)", m.name, m.diff, m.pct, m.outcome)
	}
	return strings.Join(parts, "; ")
}

// phaseChart stacks, per variant, the medians of the phases' means: where
// a request's server time goes.
func phaseChart(pt *PhaseTable, sc string) (*plot.Plot, bool) {
	if pt == nil {
		return nil, false
	}
	p := chart.New(sc+": Server-Timing phases per variant", "", "ms per request (mean)")
	var names []string
	for _, r := range pt.Rows {
		names = append(names, r.Variant)
	}
	var below *plotter.BarChart
	width := vg.Points(math.Min(60, 300/float64(len(names))))
	for i, ph := range pt.Phases {
		vals := make(plotter.Values, len(pt.Rows))
		for j, r := range pt.Rows {
			if !math.IsNaN(r.Ms[i]) {
				vals[j] = r.Ms[i]
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, false
		}
		bars.Color = chart.Color(i)
		bars.LineStyle.Width = 0
		if below != nil {
			bars.StackOn(below)
		}
		below = bars
		p.Add(bars)
		p.Legend.Add(ph, bars)
	}
	top := 0.0
	for _, r := range pt.Rows {
		if !math.IsNaN(r.TotalMs) {
			top = math.Max(top, r.TotalMs)
		}
	}
	p.Legend.Top, p.Legend.Left = true, false
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min, p.Y.Max = 0, 1.6*top // headroom: the legend sits above the bars
	return p, true
}

// mdPhases writes the scenario's phase table, if any.
func mdPhases(b *bufio.Writer, pt *PhaseTable) {
	if pt == nil {
		return
	}
	fmt.Fprintf(b, "Where the server's time goes (Server-Timing, ms per request, median over trials of the mean):\n\n")
	phases := make([]string, len(pt.Phases))
	for i, p := range pt.Phases {
		phases[i] = format.MdEscape(p) // Server-Timing's names, as the server sent them
	}
	fmt.Fprintf(b, "| variant | %s | sum | phases that moved |\n|---|%s---:|---|\n", strings.Join(phases, " | "), strings.Repeat("---:|", len(pt.Phases)))
	for _, r := range pt.Rows {
		name := format.MdEscape(r.Variant)
		if r.Baseline {
			name += " (baseline)"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", name, strings.Join(msCells(r.Ms), " | "), msCell(r.TotalMs), format.MdEscape(r.Moved))
	}
	fmt.Fprintf(b, "\n%s\n\n", format.MdEscape(pt.Clock))
}

func msCells(ms []float64) []string {
	out := make([]string, len(ms))
	for i, x := range ms {
		out[i] = msCell(x)
	}
	return out
}

func msCell(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	return fmt.Sprintf("%.2f", x)
}
