package lab

import (
	"context"
	"testing"
	"time"
)

// startLoader records where each search started and finds a rate that
// depends on the variant.
type startLoader struct {
	starts map[string][]float64
}

func (l *startLoader) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	key := spec.Scenario
	l.starts[key] = append(l.starts[key], spec.Load.Limit.MinRate)
	rate := 1000.0
	if spec.Scenario == "GETAllEmbed" {
		rate = 30
	}
	return LoadOutcome{Stats: LoadStats{Model: ModelSearch, Requests: int64(rate * 2), Rate: rate, Seconds: 2}}, nil
}

// A repeat's capacity search starts just below the rate the last search of
// its scenario found (never below min_rate); the first starts at min_rate.
func TestSearchRepeatsStartNearTheLastRate(t *testing.T) {
	e := &Experiment{Name: "limits", Scenarios: []string{"GETSingle", "GETAllEmbed"},
		Load:     Load{Model: ModelSearch, Duration: time.Second, Limit: Limit{MinRate: 50, P99: time.Second}},
		Trials:   Trials{Min: 3, Max: 3, Order: OrderInterleaved, Alpha: 0.05, Seed: 1},
		Variants: []Variant{{Name: "v", Baseline: true}}}
	ld := &startLoader{starts: map[string][]float64{}}
	if _, err := (&Runner{Server: &fakeServer{}, Loader: ld, Decided: FixedRounds}).Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	for sc, want := range map[string][]float64{"GETSingle": {50, 800, 800}, "GETAllEmbed": {50, 50, 50}} {
		got := ld.starts[sc]
		if len(got) != len(want) {
			t.Fatalf("%s: starts %v, want %v", sc, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: starts %v, want %v", sc, got, want)
				break
			}
		}
	}
}
