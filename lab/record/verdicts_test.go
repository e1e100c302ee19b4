package record_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/golden"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

func fullVerdicts() record.VerdictsV1 {
	n := func(f float64) *float64 { return &f }
	sum := func(m float64) record.SummaryV1 {
		return record.SummaryV1{Median: n(m), Lo: n(m - 1), Hi: n(m + 1), N: 3, Values: []float64{m - 1, m, m + 1}}
	}
	row := record.VerdictRowV1{Scenario: "GETSingle", Metric: "rate", Label: "throughput", Unit: "req/s", Better: 1,
		BaselineName: "tcp", VariantName: "unix", Baseline: sum(2000), Variant: sum(2200), DeltaPct: n(10), Delta: "+10.0%",
		P: 0.01, Test: "signed-rank", PUnpaired: 0.02,
		Paired: &record.PairedV1{N: 3, ChangePct: n(10), LoPct: n(8), HiPct: n(12), P: 0.01, SD: 0.02,
			Speed: &record.SpeedV1{Beta: 1, Corr: 0.9, RawP: 0.03, RawSD: 0.04, RawChangePct: n(11)}},
		Alpha: 0.05, Threshold: 0.05, MDEPct: n(2), Significant: true, Outcome: "better", Warnings: []string{"few trials"}}
	return record.VerdictsV1{Alpha: 0.05, Confidence: 0.95, Baseline: "tcp", Scenarios: []string{"GETSingle"},
		Variants: []string{"unix"}, Rows: []record.VerdictRowV1{row}, Method: "paired", Sequential: true, MinRounds: 3,
		MaxRounds: 9, Rounds: 3,
		Sweep: &record.SweepVerdictsV1{Keys: []string{"postgrest.db-pool"}, Geometric: true, Baseline: "tcp", Cheapest: "low",
			Scenarios: []record.SweepScenarioV1{{Scenario: "GETSingle",
				Points: []record.SweepPointV1{{Variant: "unix", Values: []string{"5"}, Metrics: map[string]record.SummaryV1{"rate": sum(2200)}}},
				Recommendation: record.RecommendationV1{Metric: "rate", Best: "unix", Cheapest: "tcp", VsBest: &row, Below: &row,
					CannotTell: true, Sentence: "use 5"}}}},
		Binaries: []record.BinaryV1{{Variant: "unix", Binary: "/opt/postgrest", Version: "PostgREST 13.0.9"}}}
}

// TestVerdictsGolden: verdicts with every field set encode exactly as
// testdata/golden/verdicts.json (a renamed field fails here) and read back
// as the same verdicts.
func TestVerdictsGolden(t *testing.T) {
	v := fullVerdicts()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	want := golden.File(t, filepath.Join("testdata", "golden", "verdicts.json"), got)
	if !bytes.Equal(got, want) {
		t.Fatalf("verdicts.json changed (tools reading it would break):\n%s", firstDiff(got, want))
	}
	var back record.VerdictsV1
	if err := json.Unmarshal(want, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Fatalf("golden verdicts.json reads back as\n%+v\nwant\n%+v", back, v)
	}
}
