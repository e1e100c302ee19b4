package format

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// K6Load is one load (a run's trial, or one `lab load`) as the k6 table
// reads it: the figures both kinds of result hold, already computed from
// the load's answers by the load generator (its summary's service-time
// figures are k6's http_req_duration: exact mean, minimum and maximum,
// percentiles by k6's rule).
type K6Load struct {
	Closed            bool
	Requests, Dropped int64
	Seconds           float64
	// Service times in ms, from the send to the last byte of the answer.
	AvgMs, MinMs, MedMs, MaxMs, P90Ms, P95Ms float64
	// Status counts answers by HTTP status; 0 counts requests that got
	// none (transport errors, timeouts). Nil for records that lack it:
	// then Errors stands in for the failed requests.
	Status            map[int]int64
	Errors            int64
	BytesIn, BytesOut int64
	// Connections is the closed model's connections, or the open model's
	// bound on requests in flight; MaxInFlight the most seen in flight.
	Connections, MaxInFlight int
}

// K6Row is one row of the k6 table: the metrics of k6's end-of-test
// summary, each as k6 defines it (grafana.com/docs/k6, "Built-in
// metrics"), from the same answers as the lab's other tables. One row is
// one load (K6RowOf), or the median over a variant's trials of each column
// (K6Median: each trial is one k6 run).
type K6Row struct {
	Scenario, Variant string
	Trials            int
	// Requests and Rate are http_reqs: the requests made, failed ones
	// included, and per second of the measured part. Each iteration sends
	// one request (as the 2020 benchmark's scripts did), so they are
	// iterations too.
	Requests, Rate float64
	// Dropped is dropped_iterations: the open model's requests that were
	// due but not sent, every slot in flight being busy (k6's arrival-rate
	// executors drop an iteration when no VU is free).
	Dropped float64
	// http_req_duration in ms: sending + waiting + receiving, from the
	// send, not the latency from the intended start that the open model's
	// tables also count.
	AvgMs, MinMs, MedMs, MaxMs, P90Ms, P95Ms float64
	// FailedRate is http_req_failed, the share of requests k6 counts as
	// failed: without an answer, or with a status outside 200..399 (its
	// default expected statuses); Failed is their number.
	FailedRate, Failed float64
	// Received and Sent are data_received and data_sent in bytes, over
	// Seconds of measured load.
	Received, Sent, Seconds float64
	// Closed says whether the load had k6's VUs: the closed model's
	// connections, each a VU looping (VUs, k6's vus and vus_max). The open
	// model has none: InFlight is the most requests seen in flight and
	// InFlightBound the bound on them (not VUs).
	Closed                  bool
	VUs                     float64
	InFlight, InFlightBound float64
}

// K6FailedStatus reports whether k6 counts an answer of this status as failed
// (http_req_failed): none (0), or outside 200..399.
func K6FailedStatus(status int) bool { return status < 200 || status > 399 }

// K6RowOf is one load's row.
func K6RowOf(scenario, variant string, l K6Load) K6Row {
	r := K6Row{Scenario: scenario, Variant: variant, Trials: 1, Requests: float64(l.Requests), Dropped: float64(l.Dropped),
		AvgMs: l.AvgMs, MinMs: l.MinMs, MedMs: l.MedMs, MaxMs: l.MaxMs, P90Ms: l.P90Ms, P95Ms: l.P95Ms,
		Received: float64(l.BytesIn), Sent: float64(l.BytesOut), Seconds: l.Seconds, Closed: l.Closed}
	if l.Seconds > 0 {
		r.Rate = float64(l.Requests) / l.Seconds
	}
	failed := l.Errors
	if l.Status != nil {
		failed = 0
		for code, n := range l.Status {
			if K6FailedStatus(code) {
				failed += n
			}
		}
	}
	r.Failed = float64(failed)
	if l.Requests > 0 {
		r.FailedRate = float64(failed) / float64(l.Requests)
	}
	if l.Closed {
		r.VUs = float64(l.Connections)
	} else {
		r.InFlight, r.InFlightBound = float64(l.MaxInFlight), float64(l.Connections)
	}
	return r
}

// K6Median is the row of each column's median over rows (one scenario and
// variant, one row per trial), by median.
func K6Median(rows []K6Row, median func([]float64) float64) K6Row {
	if len(rows) == 0 {
		return K6Row{}
	}
	out := rows[0]
	out.Trials = len(rows)
	for _, f := range []func(*K6Row) *float64{
		func(r *K6Row) *float64 { return &r.Requests }, func(r *K6Row) *float64 { return &r.Rate },
		func(r *K6Row) *float64 { return &r.Dropped }, func(r *K6Row) *float64 { return &r.AvgMs },
		func(r *K6Row) *float64 { return &r.MinMs }, func(r *K6Row) *float64 { return &r.MedMs },
		func(r *K6Row) *float64 { return &r.MaxMs }, func(r *K6Row) *float64 { return &r.P90Ms },
		func(r *K6Row) *float64 { return &r.P95Ms }, func(r *K6Row) *float64 { return &r.FailedRate },
		func(r *K6Row) *float64 { return &r.Failed }, func(r *K6Row) *float64 { return &r.Received },
		func(r *K6Row) *float64 { return &r.Sent }, func(r *K6Row) *float64 { return &r.Seconds },
		func(r *K6Row) *float64 { return &r.VUs }, func(r *K6Row) *float64 { return &r.InFlight },
		func(r *K6Row) *float64 { return &r.InFlightBound },
	} {
		vs := make([]float64, len(rows))
		for i := range rows {
			vs[i] = *f(&rows[i])
		}
		*f(&out) = median(vs)
	}
	return out
}

// K6Duration is the http_req_duration cell as k6 prints it: "avg=4.61ms
// min=1.02ms med=4.4ms max=21.3ms p(90)=6.9ms p(95)=8.1ms".
func (r K6Row) K6Duration() string {
	return fmt.Sprintf("avg=%s min=%s med=%s max=%s p(90)=%s p(95)=%s", msDuration(r.AvgMs), msDuration(r.MinMs),
		msDuration(r.MedMs), msDuration(r.MaxMs), msDuration(r.P90Ms), msDuration(r.P95Ms))
}

// K6Reqs is a count with its rate: "23793 2379/s", as k6 prints http_reqs
// and iterations.
func (r K6Row) K6Reqs() string { return fmt.Sprintf("%.0f %s/s", r.Requests, Num(r.Rate, 3)) }

// K6Failed is http_req_failed as k6 prints it, a percentage to two
// decimals, with the count: "0.12% 29 of 23793".
func (r K6Row) K6Failed() string {
	return fmt.Sprintf("%.2f%% %.0f of %.0f", 100*r.FailedRate, r.Failed, r.Requests)
}

// k6Data is data_received or data_sent with its rate: "5.47 MB 547 kB/s".
func (r K6Row) k6Data(n float64, bytes func(float64) string) string {
	if r.Seconds <= 0 {
		return bytes(n)
	}
	return fmt.Sprintf("%s %s/s", bytes(n), bytes(n/r.Seconds))
}

// K6Received and K6Sent are data_received and data_sent with their rates.
func (r K6Row) K6Received(bytes func(float64) string) string { return r.k6Data(r.Received, bytes) }

// K6Sent is data_sent with its rate (see K6Received).
func (r K6Row) K6Sent(bytes func(float64) string) string { return r.k6Data(r.Sent, bytes) }

// K6Header is the horizontal table's columns for rows of one load model
// (K6Text: one line per load, http_req_duration in one cell as k6 prints
// it): k6's VUs for the closed model, the open model's in-flight figures
// (not VUs) and its dropped iterations otherwise.
func K6Header(closed bool) []string {
	h := []string{"http_reqs", "iterations", "http_req_duration", "http_req_failed", "data_received", "data_sent"}
	if closed {
		return append(h, "vus", "vus_max")
	}
	return append(h, "dropped_iterations", "in flight, max (not VUs)", "in-flight bound")
}

// K6Cells are a row's cells under K6Header(r.Closed).
func (r K6Row) K6Cells(bytes func(float64) string) []string {
	c := []string{r.K6Reqs(), r.K6Reqs(), r.K6Duration(), r.K6Failed(), r.K6Received(bytes), r.K6Sent(bytes)}
	return append(c, r.k6Load()...)
}

// k6Load is the load model's cells: vus and vus_max (closed), or dropped
// iterations, the most in flight and the bound (open).
func (r K6Row) k6Load() []string {
	if r.Closed {
		return []string{fmt.Sprintf("%.0f", r.VUs), fmt.Sprintf("%.0f", r.VUs)}
	}
	return []string{fmt.Sprintf("%.0f", r.Dropped), fmt.Sprintf("%.0f", r.InFlight), fmt.Sprintf("%.0f", r.InFlightBound)}
}

// K6Metrics are the vertical table's lines, one metric each as k6's
// summary lists them (K6Markdown, the HTML report: a column per variant),
// http_req_duration's statistics on lines of their own.
func K6Metrics(closed bool) []string {
	h := K6Header(closed)
	return slices.Concat(h[:2], []string{"http_req_duration avg", "http_req_duration min", "http_req_duration med",
		"http_req_duration max", "http_req_duration p(90)", "http_req_duration p(95)"}, h[3:])
}

// K6Values are a row's values on the lines of K6Metrics(r.Closed).
func (r K6Row) K6Values(bytes func(float64) string) []string {
	v := []string{r.K6Reqs(), r.K6Reqs(), msDuration(r.AvgMs), msDuration(r.MinMs), msDuration(r.MedMs), msDuration(r.MaxMs),
		msDuration(r.P90Ms), msDuration(r.P95Ms), r.K6Failed(), r.K6Received(bytes), r.K6Sent(bytes)}
	return append(v, r.k6Load()...)
}

// K6Intro says what a run's k6 table holds.
const K6Intro = "The metrics of k6's end-of-test summary, medians over each variant's trials (each trial one k6 run)."

// K6Note says what the table's figures are.
const K6Note = "Each is k6's, from the same answers as the other tables: http_req_duration " +
	"from the send to the last byte, of the successful answers (k6's http_req_duration{expected_response:true}; " +
	"the latency tables count the open model's wait for a connection too); " +
	"http_req_failed counts no answer or a status outside 200..399; one request per iteration. " +
	"vus only for the closed model (its connections); the open model has none."

// K6Markdown writes rows (in scenario order) as the run report's Markdown
// section: per scenario a table of k6's metrics, a column per variant,
// split over several tables when the variants do not fit in
// MarkdownWidth; bytes formatted by bytes.
func K6Markdown(b *bufio.Writer, rows []K6Row, bytes func(float64) string) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprint(b, "## k6-style summary\n\n", MdPara(K6Intro+" "+K6Note))
	for len(rows) > 0 {
		n := 1
		for n < len(rows) && rows[n].Scenario == rows[0].Scenario {
			n++
		}
		fmt.Fprintf(b, "%s:\n\n", MdEscape(rows[0].Scenario))
		for cols := rows[:n]; len(cols) > 0; {
			k := len(cols)
			table := k6MdTable(cols[:k], bytes)
			for k > 1 && RuneWidth(table) > MarkdownWidth {
				k--
				table = k6MdTable(cols[:k], bytes)
			}
			fmt.Fprintf(b, "%s\n", table)
			cols = cols[k:]
		}
		rows = rows[n:]
	}
}

// k6MdTable is the metrics of some variants (rows of one scenario), a
// column each.
func k6MdTable(rows []K6Row, bytes func(float64) string) string {
	var b strings.Builder
	b.WriteString("| metric |")
	for _, r := range rows {
		fmt.Fprintf(&b, " %s |", MdEscape(r.Variant))
	}
	fmt.Fprintf(&b, "\n|---|%s\n", strings.Repeat("---:|", len(rows)))
	values := make([][]string, len(rows))
	for i, r := range rows {
		values[i] = r.K6Values(bytes)
	}
	for j, m := range K6Metrics(rows[0].Closed) {
		fmt.Fprintf(&b, "| %s |", m)
		for i := range rows {
			fmt.Fprintf(&b, " %s |", MdEscape(values[i][j]))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// K6Text writes rows as an aligned terminal table, one line per row (one
// header per load model), bytes formatted by bytes.
func K6Text(w io.Writer, rows []K6Row, bytes func(float64) string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, r := range rows {
		if i == 0 || rows[i-1].Closed != r.Closed {
			fmt.Fprintf(tw, "scenario\t%s\t\n", strings.Join(K6Header(r.Closed), "\t"))
		}
		// Each cell cleaned apart: textsafe would make the joining tabs spaces.
		cells := append([]string{r.Scenario}, r.K6Cells(bytes)...)
		for i, c := range cells {
			cells[i] = textsafe.CleanText(c)
		}
		fmt.Fprintf(tw, "%s\t\n", strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// msDuration is a duration in ms (as whole µs, the precision the rows
// keep) as Duration prints it.
func msDuration(ms float64) string {
	return Duration(time.Duration(math.Round(ms*1000)) * time.Microsecond)
}
