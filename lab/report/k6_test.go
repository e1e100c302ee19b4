package report

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
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
