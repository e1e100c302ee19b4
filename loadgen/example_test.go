package loadgen_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// The open model at 1000 req/s on GETSingle, then the k6-style table.
func ExampleRun() {
	s, err := loadgen.Builtin("GETSingle")
	if err != nil {
		log.Fatal(err)
	}
	cfg := loadgen.Config{
		Target:   loadgen.Target{URL: "http://127.0.0.1:3000"},
		Mix:      []loadgen.Weighted{{Scenario: s, Weight: 1}},
		Open:     &loadgen.Open{Rate: 1000, MaxInFlight: 100},
		Duration: 30 * time.Second,
		Warmup:   5 * time.Second,
		Seed:     42,
	}
	res, err := loadgen.Run(context.Background(), cfg, loadgen.TerminalProgress(os.Stderr))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("p99 %v at %.0f req/s, %d dropped\n", res.Summary.P99, res.Summary.Rate, res.Summary.Dropped)
	loadgen.WriteK6Table(os.Stdout, []*loadgen.Result{res})
}

// The highest rate with p99 <= 50 ms, errors <= 0.1%, dropped <= 1%.
func ExampleSearch() {
	s, _ := loadgen.Builtin("RPCSimple")
	cfg := loadgen.Config{
		Target:   loadgen.Target{URL: "http://localhost", UnixSocket: "/run/postgrest.sock"},
		Mix:      []loadgen.Weighted{{Scenario: s, Weight: 1}},
		Open:     &loadgen.Open{Rate: 500}, // starting rate
		Duration: 10 * time.Second,
	}
	sr, err := loadgen.Search(context.Background(), cfg,
		loadgen.Limit{P99: 50 * time.Millisecond, MaxErrorRate: 0.001, MaxDroppedRate: 0.01}, nil)
	if err != nil {
		log.Fatal(err)
	}
	loadgen.WriteSearchText(os.Stdout, sr)
}
