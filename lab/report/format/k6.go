package format

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// K6Row is one row of the k6-style table: the columns the 2020 PostgREST
// benchmark reported from k6 (http_reqs rate and count, http_req_duration
// avg, data_received, data_sent, vus, failed_requests). A run's report
// fills it with medians over a variant's trials, `lab load --k6` with one
// result.
type K6Row struct {
	Scenario, Variant string
	Trials            int
	Rate              float64 // http_reqs rate, req/s
	Count             float64 // http_reqs count (per trial)
	AvgMs             float64 // http_req_duration avg, ms: service time (from the send), as k6
	Received, Sent    float64 // data_received, data_sent (per trial), bytes
	Seconds           float64 // measured seconds (per trial)
	VUs               float64 // connections (closed) or max in flight (open)
	FailedPct         float64 // failed_requests, % of requests
	Failed            int64   // failed_requests (one result)
}

// K6Markdown writes rows (sorted by scenario) as the run report's
// Markdown section, one table per scenario, numbers formatted by num and
// bytes by bytes.
func K6Markdown(b *bufio.Writer, rows []K6Row, num func(float64) string, bytes func(float64) string) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "## k6-style summary\n\nIn the columns of the 2020 PostgREST benchmark (k6), medians per trial.\n\n")
	for i, r := range rows {
		if i == 0 || rows[i-1].Scenario != r.Scenario {
			if i > 0 {
				fmt.Fprintln(b)
			}
			fmt.Fprintf(b, "%s:\n\n| variant | http_reqs | http_req_duration avg | data_received | data_sent | vus | failed_requests |\n", MdEscape(r.Scenario))
			fmt.Fprintf(b, "|---|---:|---:|---:|---:|---:|---:|\n")
		}
		per := func(n float64) string {
			if r.Seconds <= 0 {
				return bytes(n)
			}
			return fmt.Sprintf("%s (%s/s)", bytes(n), bytes(n/r.Seconds))
		}
		fmt.Fprintf(b, "| %s | %.0f (%s/s) | %sms | %s | %s | %.0f | %.2f%% |\n", MdEscape(r.Variant), r.Count, num(r.Rate),
			num(r.AvgMs), per(r.Received), per(r.Sent), r.VUs, r.FailedPct)
	}
	fmt.Fprintln(b)
}

// K6Text writes rows as an aligned terminal table, one line per row, with
// the failed requests' count and bytes formatted by bytes.
func K6Text(w io.Writer, rows []K6Row, bytes func(float64) string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\thttp_reqs (rate)\thttp_reqs (count)\thttp_req_duration (avg)\tdata_received\tdata_sent\tvus\tfailed_requests\t")
	for _, r := range rows {
		textsafe.Fprintf(tw, "%s\t%.2f/s\t%.0f\t%s\t%s\t%s\t%.0f\t%.2f%% (%d)\t\n", r.Scenario, r.Rate, r.Count, msDuration(r.AvgMs),
			bytes(r.Received), bytes(r.Sent), r.VUs, r.FailedPct, r.Failed)
	}
	return tw.Flush()
}

// msDuration is a duration in ms (as whole µs, the precision the rows
// keep) as Duration prints it.
func msDuration(ms float64) string {
	return Duration(time.Duration(math.Round(ms*1000)) * time.Microsecond)
}
