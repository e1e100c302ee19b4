package report

import (
	"bufio"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// GrowthRow is one trial's memory growth as every format shows it.
type GrowthRow struct {
	Variant, Scenario, Trial, Span, First, Last, PerHour, Interval string
	// LiveHeap is the GHC live heap after the trial's first and last
	// major collections and their count (profile = true): "51.3 MB →
	// 53.2 MB (3)", one figure for one collection, "–" for none.
	LiveHeap string
	// Live is the GHC live heap's growth per hour and its interval, "–"
	// when there are too few major collections to fit.
	Live, LiveInterval string
}

const growthIntro = "The target's resident memory per trial (timeline = true): the first and last bin's mean, and the growth per hour " +
	"of a least-squares line through 30 bin means of the 10 Hz samples, with its 95 % confidence interval (t distribution; the " +
	"bins' residuals taken as independent, so slow oscillations make it too narrow). RSS alone does not tell a leak: a GHC " +
	"runtime's RSS grows as its old generation fills until a major collection, steps up at it (the copying collector's " +
	"second copy) and keeps that memory, so a growth fitted across it is the step. With profile = true, the live heap (GHC's " +
	"live bytes after the first and last major collections, and their count) and its growth, fitted the same way when " +
	"there are enough collections: a live heap that holds while RSS grows is the runtime's memory, not data kept alive."

// GrowthRows are the memory growth rows of a run with timeline = true.
func GrowthRows(run *lab.Run) []GrowthRow {
	if !run.Experiment.Timeline {
		return nil
	}
	var out []GrowthRow
	for _, t := range run.Trials {
		g, ok := stats.RSSGrowth(t, 0.05)
		if !ok || t.Error != "" {
			continue
		}
		ss := t.Server.Samples
		out = append(out, GrowthRow{Variant: t.Variant, Scenario: t.Scenario, Trial: fmt.Sprint(t.Seq),
			Span: format.Num(g.Seconds, 3) + " s", First: format.Bytes(float64(ss[0].RSS)), Last: format.Bytes(float64(ss[len(ss)-1].RSS)),
			PerHour:  signedBytes(g.PerHour) + "/h",
			Interval: "[" + signedBytes(g.Lo) + ", " + signedBytes(g.Hi) + "]", LiveHeap: liveHeap(t.GHC), Live: "–", LiveInterval: "–"})
		if lg, ok := stats.LiveGrowth(t, 0.05); ok {
			r := &out[len(out)-1]
			r.Live, r.LiveInterval = signedBytes(lg.PerHour)+"/h", "["+signedBytes(lg.Lo)+", "+signedBytes(lg.Hi)+"]"
		}
	}
	return out
}

// liveHeap is the live heap after the first and last major collections
// and their count, "–" without one.
func liveHeap(g *lab.GHCStats) string {
	if g == nil || len(g.Live) == 0 {
		return "–"
	}
	first, last := g.Live[0].Bytes, g.Live[len(g.Live)-1].Bytes
	if len(g.Live) == 1 {
		return format.Bytes(float64(first)) + " (1)"
	}
	return fmt.Sprintf("%s → %s (%d)", format.Bytes(float64(first)), format.Bytes(float64(last)), len(g.Live))
}

func signedBytes(b float64) string {
	if b < 0 {
		return "-" + format.Bytes(-b)
	}
	return "+" + format.Bytes(b)
}

// mdGrowth writes the memory growth table.
func mdGrowth(b *bufio.Writer, run *lab.Run) {
	rows := GrowthRows(run)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "## Memory growth\n\n")
	fmt.Fprint(b, format.MdPara(growthIntro))
	fmt.Fprintf(b, "| variant | scenario | trial | span | RSS first | RSS last | growth | 95 %% interval | live heap after major GCs | live heap growth | 95 %% interval |\n|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", format.MdEscape(r.Variant), format.MdEscape(r.Scenario), r.Trial, r.Span, r.First, r.Last, r.PerHour, r.Interval, r.LiveHeap, r.Live, r.LiveInterval)
	}
	fmt.Fprintln(b)
}
