package report

import (
	"bufio"
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// TimelineSection is one trial's timeline as every format shows it.
type TimelineSection struct {
	Title  string
	Events []string // "4.02 s: action NOTIFY ... (3.00 s)"
	Stalls []string // "from 4 s for 3 s: ..."
	Rows   [][]string
}

const timelineIntro = "One trial on one time axis, per second of its measured part: successful and failed answers, the latency " +
	"of the successful ones, and the target's highest resident memory sampled in that second; events at their time (the " +
	"experiment's actions, the target's schema cache loads from its log and /metrics, restarts and OOM kills). A stall is a run of seconds " +
	"with fewer than 20 % of the median second's successful answers; its worst p99 includes the second after it, where " +
	"the requests it held complete."

// timelineHeader is the per-second table's columns.
var timelineHeader = []string{"s", "ok/s", "errors/s", "p50 ms", "p99 ms", "max ms", "RSS"}

// maxTimelineRows bounds the per-second table: longer trials are shown in
// bins of several seconds (sums of answers, the highest latency and RSS).
const maxTimelineRows = 60

// TimelineSections formats stats.Timelines(run).
func TimelineSections(run *lab.Run) []TimelineSection {
	var out []TimelineSection
	for _, tl := range stats.Timelines(run) {
		s := TimelineSection{Title: fmt.Sprintf("Trial %d: %s, %s (repetition %d)", tl.Trial, tl.Variant, tl.Scenario, tl.Rep)}
		for _, e := range tl.Events {
			s.Events = append(s.Events, eventLine(e))
		}
		for _, st := range tl.Stalls {
			s.Stalls = append(s.Stalls, stallLine(st))
		}
		s.Rows = timelineRows(tl)
		out = append(out, s)
	}
	return out
}

func eventLine(e stats.TimelineEvent) string {
	s := fmt.Sprintf("%s s: %s %s", format.Num(e.T, 3), e.Kind, e.Detail)
	if e.Seconds > 0 {
		s += fmt.Sprintf(" (%s s)", format.Num(e.Seconds, 3))
	}
	return s
}

func stallLine(st stats.Stall) string {
	s := fmt.Sprintf("from %s s for %s s, worst p99 %s ms", format.Num(st.Start, 3), format.Num(st.Seconds, 3), format.Num(st.WorstP99Ms, 3))
	if st.WorstMs > 0 {
		s += fmt.Sprintf(", slowest answer %s ms", format.Num(st.WorstMs, 3))
	}
	if st.Errors > 0 {
		s += fmt.Sprintf(", %d failed answers", st.Errors)
	}
	if st.Dropped > 0 {
		s += fmt.Sprintf(", %d dropped", st.Dropped)
	}
	return s
}

// timelineRows are the per-second table's rows, binned to at most
// maxTimelineRows.
func timelineRows(tl stats.Timeline) [][]string {
	bin := max(1, int(math.Ceil(float64(len(tl.Points))/maxTimelineRows)))
	var rows [][]string
	for i := 0; i < len(tl.Points); i += bin {
		ps := tl.Points[i:min(i+bin, len(tl.Points))]
		var ok, errs int64
		var p50, p99, mx float64
		var rss uint64
		for _, p := range ps {
			ok, errs = ok+p.OK, errs+p.Errors
			p50, p99, mx, rss = max(p50, p.P50Ms), max(p99, p.P99Ms), max(mx, p.MaxMs), max(rss, p.RSS)
		}
		secs := float64(len(ps))
		row := []string{fmt.Sprintf("%g", ps[0].T), format.Num(float64(ok)/secs, 3), format.Num(float64(errs)/secs, 3), "–", "–", "–", "–"}
		if p99 > 0 {
			row[3], row[4] = format.Num(p50, 3), format.Num(p99, 3)
		}
		if mx > 0 {
			row[5] = format.Num(mx, 3)
		}
		if rss > 0 {
			row[6] = format.Bytes(float64(rss))
		}
		rows = append(rows, row)
	}
	return rows
}

// mdTimelines writes the timelines section.
func mdTimelines(b *bufio.Writer, run *lab.Run) {
	secs := TimelineSections(run)
	if len(secs) == 0 {
		return
	}
	fmt.Fprintf(b, "## Timeline\n\n")
	fmt.Fprint(b, format.MdPara(timelineIntro))
	for _, s := range secs {
		fmt.Fprintf(b, "### %s\n\n", format.MdEscape(s.Title))
		for _, l := range timelineLists(s) {
			fmt.Fprint(b, format.MdItem(format.MdEscape(l)))
		}
		fmt.Fprintln(b)
		fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(timelineHeader, " | "), strings.Repeat("---:|", len(timelineHeader)))
		for _, r := range s.Rows {
			fmt.Fprintf(b, "| %s |\n", strings.Join(r, " | "))
		}
		fmt.Fprintln(b)
	}
}

// timelineLists are a section's events and stalls as list items.
func timelineLists(s TimelineSection) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, "event at "+e)
	}
	for _, st := range s.Stalls {
		out = append(out, "stall "+st)
	}
	if len(s.Stalls) == 0 {
		out = append(out, "no stall")
	}
	return out
}
