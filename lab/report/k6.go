package report

import (
	"bufio"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// K6Row is one (scenario, variant) in the columns the 2020 PostgREST
// benchmark reported from k6: medians over the variant's valid trials.
type K6Row struct {
	Scenario, Variant string
	Trials            int
	Rate              float64 // http_reqs rate, req/s
	Count             float64 // http_reqs count per trial
	AvgMs             float64 // http_req_duration avg, ms: service time, as k6 and `lab load --k6`
	Received, Sent    float64 // data_received, data_sent per trial, bytes
	Seconds           float64 // measured seconds per trial
	VUs               float64 // connections (closed) or max in flight (open)
	FailedPct         float64 // failed_requests, % of requests
}

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

func mdK6(b *bufio.Writer, run *lab.Run) {
	rows := K6Rows(run)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "## k6-style summary\n\nIn the columns of the 2020 PostgREST benchmark (k6), medians per trial.\n\n")
	for i, r := range rows {
		if i == 0 || rows[i-1].Scenario != r.Scenario {
			if i > 0 {
				fmt.Fprintln(b)
			}
			fmt.Fprintf(b, "%s:\n\n| variant | http_reqs | http_req_duration avg | data_received | data_sent | vus | failed_requests |\n", r.Scenario)
			fmt.Fprintf(b, "|---|---:|---:|---:|---:|---:|---:|\n")
		}
		per := func(bytes float64) string {
			if r.Seconds <= 0 {
				return bytesStr(bytes)
			}
			return fmt.Sprintf("%s (%s/s)", bytesStr(bytes), bytesStr(bytes/r.Seconds))
		}
		fmt.Fprintf(b, "| %s | %.0f (%s/s) | %sms | %s | %s | %.0f | %.2f%% |\n", r.Variant, r.Count, num(r.Rate),
			num(r.AvgMs), per(r.Received), per(r.Sent), r.VUs, r.FailedPct)
	}
	fmt.Fprintln(b)
}
