package load

import (
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// K6Table writes one row per result in the columns of the original
// PostgREST benchmark tables (k6 metrics, format.K6Text): http_reqs rate
// and count, http_req_duration avg, data_received, data_sent, vus,
// failed_requests. Like k6's http_req_duration, the average is the service
// time (from the send); vus is the highest number of requests in flight.
func K6Table(w io.Writer, results []*Result) error {
	rows := make([]format.K6Row, len(results))
	for i, s := range results {
		rows[i] = format.K6Row{Scenario: s.Scenario, Trials: 1, Rate: s.Rate, Count: float64(s.Requests), AvgMs: ms(s.ServiceMean),
			Received: float64(s.BytesIn), Sent: float64(s.BytesOut), Seconds: s.Duration.Seconds(), VUs: float64(s.MaxInFlight),
			FailedPct: 100 * s.ErrorRate, Failed: s.Errors}
	}
	return format.K6Text(w, rows, fmtBytes)
}
