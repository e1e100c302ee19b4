package report

import (
	"bufio"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// The report's k6 table and `lab load --k6` both give k6's
// http_req_duration: the service time (from the send), not the latency
// from the intended start that the open model also counts.
func TestK6DurationIsServiceTime(t *testing.T) {
	trial := func(seq int, svc float64) lab.Trial {
		return lab.Trial{Seq: seq, Variant: "a", Scenario: "GETSingle", Load: lab.LoadStats{Model: "open", Requests: 100, Rate: 100,
			Seconds: 1, LatencyMs: lab.Percentiles{Mean: 5}, ServiceMs: lab.Percentiles{Mean: svc}}}
	}
	run := &lab.Run{Experiment: lab.Experiment{Name: "x", Variants: []lab.Variant{{Name: "a", Baseline: true}}},
		Trials: []lab.Trial{trial(1, 2), trial(2, 2), trial(3, 0)}}
	rows := K6Rows(run)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	// Two trials with a service mean of 2 ms, one older record without one
	// (latency mean 5 ms stands in): the median is 2.
	if rows[0].AvgMs != 2 {
		t.Fatalf("http_req_duration avg %v ms, want the service mean 2", rows[0].AvgMs)
	}
}

// k6Trend is k6's Trend summary of values (ms): avg, min, med, max, p(90),
// p(95), a percentile being the value at rank pct·(n-1), interpolated.
func k6Trend(values []float64) (avg, min, med, max, p90, p95 float64) {
	v := slices.Clone(values)
	slices.Sort(v)
	p := func(pct float64) float64 {
		i := pct * float64(len(v)-1)
		j, k := v[int(math.Floor(i))], v[int(math.Ceil(i))]
		return j + (k-j)*(i-math.Floor(i))
	}
	for _, x := range v {
		avg += x
	}
	return avg / float64(len(v)), v[0], p(0.5), v[len(v)-1], p(0.90), p(0.95)
}

// The k6 columns of a known trace are k6's: http_reqs counts every
// request (failed ones too) over the measured seconds, http_req_failed the
// ones without an answer (status 0) or outside 200..399 (a 302 and a 399
// pass, though the scenario expected 200 and the lab counts them as
// errors), http_req_duration is the service time's figures, data the bytes;
// vus are the closed model's connections, and the open model's bound is
// not called VUs. The loads' summaries are k6's on their answers
// (loadgen's TestSummaryIsK6OnAKnownTrace); here the table reads them.
func TestK6ColumnsAreK6sOnAKnownTrace(t *testing.T) {
	statuses := []int{200, 200, 201, 302, 399, 400, 404, 500, 503, 0, 200, 200}
	svc := []float64{4.2, 3.1, 9.8, 2.2, 5.5, 1.1, 7.3, 30.4, 12.0, 6.6, 3.3, 4.9}
	avg, mn, med, mx, p90, p95 := k6Trend(svc)
	status := map[string]int64{}
	for _, s := range statuses {
		status[strconv.Itoa(s)]++
	}
	load := func(model lab.Model) lab.LoadStats {
		return lab.LoadStats{Model: model, Requests: 12, Errors: 8, Seconds: 4, Rate: 1, // the lab's Rate may count successes only
			ServiceMs: lab.Percentiles{Mean: avg, Min: mn, P50: med, Max: mx, P90: p90, P95: p95},
			LatencyMs: lab.Percentiles{Mean: 2 * avg, P50: 2 * med}, // the open model's wait: not http_req_duration
			BytesIn:   12_000, BytesOut: 2_400, Status: status, Connections: 10, MaxInFlight: 7, Dropped: 3}
	}
	run := &lab.Run{Experiment: lab.Experiment{Name: "x", Scenarios: []string{"GETSingle"}, Variants: []lab.Variant{{Name: "a", Baseline: true}}},
		Trials: []lab.Trial{{Seq: 1, Variant: "a", Scenario: "GETSingle", Rep: 1, Load: load(lab.ModelClosed)}}}
	rows := K6Rows(run)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"http_reqs count", r.Requests, 12}, {"http_reqs rate", r.Rate, 3},
		{"http_req_duration avg", r.AvgMs, avg}, {"min", r.MinMs, mn}, {"med", r.MedMs, med}, {"max", r.MaxMs, mx},
		{"p(90)", r.P90Ms, p90}, {"p(95)", r.P95Ms, p95},
		{"http_req_failed", r.FailedRate, 5.0 / 12}, {"failed count", r.Failed, 5},
		{"data_received", r.Received, 12_000}, {"data_sent", r.Sent, 2_400}, {"vus", r.VUs, 10},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, k6 says %v", c.name, c.got, c.want)
		}
	}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	format.K6Markdown(w, rows, format.Bytes)
	w.Flush()
	for _, want := range []string{"| metric | a |\n", "| http_reqs | 12 3.00/s |\n| iterations | 12 3.00/s |\n",
		"| http_req_duration med | 5.20ms |", "| http_req_duration p(95) | 20.28ms |", "| http_req_failed | 41.67% 5 of 12 |",
		"| data_received | 12.0 kB 3.00 kB/s |\n| data_sent | 2.40 kB 600 B/s |\n| vus | 10 |\n| vus_max | 10 |\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}

	run.Trials[0].Load = load(lab.ModelOpen)
	b.Reset()
	w = bufio.NewWriter(&b)
	format.K6Markdown(w, K6Rows(run), format.Bytes)
	w.Flush()
	if r := K6Rows(run)[0]; r.VUs != 0 || r.InFlight != 7 || r.InFlightBound != 10 || r.Dropped != 3 || r.AvgMs != avg {
		t.Errorf("open model: %+v", r)
	}
	if strings.Contains(b.String(), "| vus") ||
		!strings.Contains(b.String(), "| dropped_iterations | 3 |\n| in flight, max (not VUs) | 7 |\n| in-flight bound | 10 |\n") {
		t.Errorf("open model's table:\n%s", b.String())
	}
}

// Over several trials each column is the median of the trials' figures
// (each trial one k6 run).
func TestK6RowsAreMediansPerTrial(t *testing.T) {
	trial := func(seq int, reqs int64, avg float64) lab.Trial {
		return lab.Trial{Seq: seq, Variant: "a", Scenario: "GETSingle", Rep: seq, Load: lab.LoadStats{Model: lab.ModelClosed, Requests: reqs,
			Seconds: 10, Connections: 10, ServiceMs: lab.Percentiles{Mean: avg}, Status: map[string]int64{"200": reqs}}}
	}
	run := &lab.Run{Experiment: lab.Experiment{Name: "x", Variants: []lab.Variant{{Name: "a", Baseline: true}}},
		Trials: []lab.Trial{trial(1, 1000, 5), trial(2, 3000, 1), trial(3, 2000, 9)}}
	r := K6Rows(run)[0]
	if r.Trials != 3 || r.Requests != 2000 || r.Rate != 200 || r.AvgMs != 5 || r.FailedRate != 0 {
		t.Errorf("row %+v", r)
	}
}
