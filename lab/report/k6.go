package report

import (
	"bufio"
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// K6Row is one (scenario, variant) of a run's k6-style table: medians
// over the variant's valid trials.
type K6Row = format.K6Row

// K6Rows computes the k6-style table of a run: per scenario and variant,
// each trial's k6 figures (format.K6RowOf) and their medians.
func K6Rows(run *lab.Run) []K6Row {
	var out []K6Row
	for _, sc := range stats.ScenarioNames(run) {
		for _, name := range stats.VariantNames(run) {
			var rows []K6Row
			for _, t := range stats.TrialsOf(run, name, sc) {
				if t.Error != "" || t.Load.Requests == 0 {
					continue
				}
				rows = append(rows, format.K6RowOf(sc, name, k6Load(t.Load)))
			}
			if len(rows) > 0 {
				out = append(out, format.K6Median(rows, stats.Median))
			}
		}
	}
	return out
}

// k6Load is what the k6 table reads of a trial. http_req_duration is the
// service time (from the send; in the open model the latency also counts
// the wait for a send slot). Records written before service times were
// kept have none: for them the latency stands in.
func k6Load(l lab.LoadStats) format.K6Load {
	d := l.ServiceMs
	if d.Mean <= 0 {
		d = l.LatencyMs
	}
	k := format.K6Load{Closed: l.Model.Closed(), Requests: l.Requests, Dropped: l.Dropped, Seconds: l.Seconds,
		AvgMs: d.Mean, MinMs: d.Min, MedMs: d.P50, MaxMs: d.Max, P90Ms: d.P90, P95Ms: d.P95,
		Errors: l.Errors, BytesIn: l.BytesIn, BytesOut: l.BytesOut, Connections: l.Connections, MaxInFlight: l.MaxInFlight}
	if len(l.Status) > 0 {
		k.Status = map[int]int64{}
		for code, n := range l.Status {
			if c, err := strconv.Atoi(code); err == nil {
				k.Status[c] += n
			}
		}
	}
	return k
}

func mdK6(b *bufio.Writer, run *lab.Run) { format.K6Markdown(b, K6Rows(run), format.Bytes) }
