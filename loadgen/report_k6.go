package loadgen

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteK6Table writes one row per result in the columns of the original
// PostgREST benchmark tables (k6 metrics): http_reqs rate and count,
// http_req_duration avg, data_received, data_sent, vus, failed_requests.
// Like k6's http_req_duration, the average is the service time (from the
// send); vus is the highest number of requests in flight.
func WriteK6Table(w io.Writer, results []*Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\thttp_reqs (rate)\thttp_reqs (count)\thttp_req_duration (avg)\tdata_received\tdata_sent\tvus\tfailed_requests\t")
	for _, r := range results {
		s := r.Summary
		fmt.Fprintf(tw, "%s\t%.2f/s\t%d\t%s\t%s\t%s\t%d\t%.2f%% (%d)\t\n", s.Scenario, s.Rate, s.Requests, fd(s.ServiceMean),
			fmtBytes(s.BytesIn), fmtBytes(s.BytesOut), s.MaxInFlight, 100*s.ErrorRate(), s.Errors)
	}
	return tw.Flush()
}
