package loadgen_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// standIn is a loopback server standing in for PostgREST in the examples.
func standIn() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"artist_id":3,"name":"Aerosmith"}]`)
	}))
}

// The open model at 200 req/s on GETSingle for one second. Against a real
// PostgREST, Target.URL is its address (or Target.UnixSocket its socket),
// and `lab load --k6` prints the original benchmark's columns (package
// lab/report/load).
func ExampleRun() {
	srv := standIn()
	defer srv.Close()
	s, err := loadgen.Builtin("GETSingle")
	if err != nil {
		log.Fatal(err)
	}
	cfg := loadgen.Config{
		Target:   loadgen.Target{URL: srv.URL},
		Mix:      []loadgen.Weighted{{Scenario: s, Weight: 1}},
		Open:     &loadgen.Open{Rate: 200, MaxInFlight: 100},
		Duration: time.Second,
		Warmup:   200 * time.Millisecond,
		Seed:     42,
	}
	res, err := loadgen.Run(context.Background(), cfg, nil)
	if err != nil {
		log.Fatal(err)
	}
	sum := res.Summary
	fmt.Printf("model %s, asked %.0f req/s, got within 10%%: %v, errors %d, dropped %d\n",
		sum.Model, sum.TargetRate, sum.Rate > 180 && sum.Rate < 220, sum.Errors, sum.Dropped)
	// Output: model open, asked 200 req/s, got within 10%: true, errors 0, dropped 0
}

// The highest rate with p99 <= 50 ms, errors <= 0.1 % and dropped <= 1 %,
// never asking for more than 400 req/s: a server that keeps up is reported
// at that bound.
func ExampleSearch() {
	srv := standIn()
	defer srv.Close()
	s, _ := loadgen.Builtin("RPCSimple")
	cfg := loadgen.Config{
		Target:   loadgen.Target{URL: srv.URL},
		Mix:      []loadgen.Weighted{{Scenario: s, Weight: 1}},
		Open:     &loadgen.Open{Rate: 100}, // starting rate
		Duration: 300 * time.Millisecond,
	}
	sr, err := loadgen.Search(context.Background(), cfg,
		loadgen.Limit{P99: 250 * time.Millisecond, MaxErrorRate: 0.001, MaxDroppedRate: 0.01, MaxRate: 400}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range sr.Curve {
		fmt.Printf("%.0f req/s: pass %v\n", p.Rate, p.Pass)
	}
	fmt.Printf("highest rate meeting the limit: %.0f req/s\n", sr.Best)
	// Output:
	// 100 req/s: pass true
	// 200 req/s: pass true
	// 400 req/s: pass true
	// highest rate meeting the limit: 400 req/s
}
