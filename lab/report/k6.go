package report

import (
	"bufio"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// K6Row is one (scenario, variant) of a run's k6-style table: medians
// over the variant's valid trials.
type K6Row = format.K6Row

// K6Rows computes the k6-style table of a run.
func K6Rows(run *lab.Run) []K6Row {
	var out []K6Row
	for _, sc := range stats.ScenarioNames(run) {
		for _, name := range stats.VariantNames(run) {
			var rate, count, avg, in, sent, secs, vus, failed []float64
			for _, t := range stats.TrialsOf(run, name, sc) {
				if t.Error != "" || t.Load.Requests == 0 {
					continue
				}
				l := t.Load
				rate = append(rate, l.Rate)
				count = append(count, float64(l.Requests))
				avg = append(avg, k6Duration(l))
				in = append(in, float64(l.BytesIn))
				sent = append(sent, float64(l.BytesOut))
				secs = append(secs, l.Seconds)
				vu := l.Connections
				if vu == 0 {
					vu = l.MaxInFlight
				}
				vus = append(vus, float64(vu))
				failed = append(failed, 100*float64(l.Errors)/float64(l.Requests))
			}
			if len(rate) == 0 {
				continue
			}
			out = append(out, K6Row{Scenario: sc, Variant: name, Trials: len(rate), Rate: stats.Median(rate), Count: stats.Median(count),
				AvgMs: stats.Median(avg), Received: stats.Median(in), Sent: stats.Median(sent), Seconds: stats.Median(secs), VUs: stats.Median(vus), FailedPct: stats.Median(failed)})
		}
	}
	return out
}

// k6Duration is k6's http_req_duration: the service time, from when the
// request was sent (in the open model, latency also counts the time a
// request waited for its send slot). Records written before service means
// were kept have none: for them the latency mean is the closest figure.
func k6Duration(l lab.LoadStats) float64 {
	if l.ServiceMs.Mean > 0 {
		return l.ServiceMs.Mean
	}
	return l.LatencyMs.Mean
}

func mdK6(b *bufio.Writer, run *lab.Run) { format.K6Markdown(b, K6Rows(run), num, format.Bytes) }
