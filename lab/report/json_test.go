package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// verdicts.json names the metrics and writes unbounded intervals as null.
func TestVerdictsJSON(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: 3, Noise: 0.02, Seed: 1,
		Variants: []statstest.Variant{{Name: "tcp", Baseline: true, Rate: 2600, P50Ms: 2, ServerUs: 100, DBUs: 100},
			{Name: "unix", Rate: 2860, P50Ms: 2, ServerUs: 100, DBUs: 100}}})
	v := stats.Compare(run, 0.05)
	var b bytes.Buffer
	if err := report.JSON(&b, v); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Alpha float64
		Rows  []struct {
			Metric   string
			Delta    string
			Baseline struct{ Lo *float64 }
		}
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Alpha != 0.05 || len(back.Rows) != len(v.Rows) || back.Rows[0].Metric != "rate" || back.Rows[0].Baseline.Lo != nil {
		t.Errorf("round trip: %s", b.Bytes())
	}
}

// verdicts.json carries the sweep: keys, per value medians and intervals,
// and the recommendation.
func TestSweepJSON(t *testing.T) {
	v := stats.Compare(statstest.PoolSweep([]float64{1000, 1500, 2400, 2410, 2405, 2400}, 0.02, 2, ""), 0)
	var b bytes.Buffer
	if err := report.JSON(&b, v); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sweep struct {
			Keys      []string
			Scenarios []struct {
				Points []struct {
					Variant string
					Values  []string
					Metrics map[string]struct{ Median, Lo, Hi *float64 }
				}
				Recommendation struct{ Cheapest, Sentence string }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	s := got.Sweep
	if fmt.Sprint(s.Keys) != "[postgrest.db-pool]" || len(s.Scenarios) != 1 || len(s.Scenarios[0].Points) != 6 {
		t.Fatalf("sweep json %s", b.Bytes())
	}
	p := s.Scenarios[0].Points[2]
	if p.Variant != "db-pool=5" || p.Values[0] != "5" || p.Metrics["rate"].Median == nil || p.Metrics["rate"].Lo == nil {
		t.Errorf("point %+v", p)
	}
	if s.Scenarios[0].Recommendation.Cheapest != "db-pool=5" || s.Scenarios[0].Recommendation.Sentence == "" {
		t.Errorf("recommendation %+v", s.Scenarios[0].Recommendation)
	}
}
