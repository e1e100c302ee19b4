package load

import (
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// K6Table writes one row per result with the metrics of k6's end-of-test
// summary (format.K6Row: http_reqs, iterations, http_req_duration from the
// send, http_req_failed, data_received, data_sent, and vus for the closed
// model only: the open model's in-flight figures are named as such).
func K6Table(w io.Writer, results []*Result) error {
	rows := make([]format.K6Row, len(results))
	for i, s := range results {
		rows[i] = format.K6RowOf(s.Scenario, "", format.K6Load{Closed: s.Model == "closed", Requests: s.Requests, Dropped: s.Dropped,
			Seconds: s.Duration.Seconds(), AvgMs: ms(s.ServiceMean), MinMs: ms(s.ServiceMin), MedMs: ms(s.ServiceP50),
			MaxMs: ms(s.ServiceMax), P90Ms: ms(s.ServiceP90), P95Ms: ms(s.ServiceP95), Status: s.Status, Errors: s.Errors,
			BytesIn: s.BytesIn, BytesOut: s.BytesOut, Connections: s.Connections, MaxInFlight: s.MaxInFlight})
	}
	return format.K6Text(w, rows, fmtBytes)
}
