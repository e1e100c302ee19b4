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
	// Live is the GHC live heap's growth per hour and its interval
	// (profile = true), "–" when the trial has no such series.
	Live, LiveInterval string
}

const growthIntro = "The target's resident memory per trial (timeline = true): the first and last bin's mean, and the growth per hour " +
	"of a least-squares line through 30 bin means of the 10 Hz samples, with its 95 % confidence interval (t distribution; the " +
	"bins' residuals taken as independent, so slow oscillations make it too narrow). A growth whose interval excludes 0 over a " +
	"long soak is a leak or a cache filling; over a short trial it is mostly warm-up. With profile = true, the live heap's growth " +
	"(GHC's live bytes after each major collection, fitted the same way): RSS that grows while the live heap does not is the " +
	"runtime keeping freed memory, not data kept alive."

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
			Interval: "[" + signedBytes(g.Lo) + ", " + signedBytes(g.Hi) + "]", Live: "–", LiveInterval: "–"})
		if lg, ok := stats.LiveGrowth(t, 0.05); ok {
			r := &out[len(out)-1]
			r.Live, r.LiveInterval = signedBytes(lg.PerHour)+"/h", "["+signedBytes(lg.Lo)+", "+signedBytes(lg.Hi)+"]"
		}
	}
	return out
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
	fmt.Fprintf(b, "| variant | scenario | trial | span | RSS first | RSS last | growth | 95 %% interval | live heap growth | 95 %% interval |\n|---|---|---:|---:|---:|---:|---:|---|---:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", format.MdEscape(r.Variant), format.MdEscape(r.Scenario), r.Trial, r.Span, r.First, r.Last, r.PerHour, r.Interval, r.Live, r.LiveInterval)
	}
	fmt.Fprintln(b)
}
