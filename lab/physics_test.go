package lab

import (
	"context"
	"strings"
	"testing"
	"time"
)

// twoCPUServer is fakeServer on a host of two CPUs.
type twoCPUServer struct{ fakeServer }

func (f *twoCPUServer) Describe(context.Context) (Host, TargetInfo, error) {
	return Host{Hostname: "h", CPUs: 2}, TargetInfo{Binary: "fake"}, nil
}

// rateLoader finds rate[scenario] in every search.
type rateLoader map[string]float64

func (l rateLoader) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	r := l[spec.Scenario]
	return LoadOutcome{Stats: LoadStats{Model: ModelSearch, Requests: int64(r * 2), Rate: r, AskedRate: r, Seconds: 2}}, nil
}

// Issue 53: GETAllEmbed once "passed" at 62.5 req/s with 43.5 ms of CPU
// per request: 2.7 cores busy on a 2-CPU machine. A search whose rate
// times the CPU each request cost exceeds the server's cores is refused
// as a measurement error; one within them stands.
func TestRunnerRefusesARateAboveThePhysicalBound(t *testing.T) {
	e := &Experiment{Name: "limits", Scenarios: []string{"GETSingle", "GETAllEmbed"},
		Load:     Load{Model: ModelSearch, Duration: time.Second, Limit: Limit{MinRate: 10, P99: time.Second}},
		Trials:   Trials{Min: 2, Max: 2, Order: OrderInterleaved, Alpha: 0.05, Seed: 1},
		Variants: []Variant{{Name: "v", Baseline: true}}}
	// The fake window charges 100 µs a request: 30,000 req/s is 3 cores.
	run, err := (&Runner{Server: &twoCPUServer{}, Loader: rateLoader{"GETSingle": 1000, "GETAllEmbed": 30_000}, Decided: FixedRounds}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range run.Trials {
		refused := strings.Contains(tr.Error, "implausible") && strings.Contains(tr.Error, "the server had 2")
		if refused != (tr.Scenario == "GETAllEmbed") {
			t.Errorf("%s at %.0f req/s: error %q, want refused only above the 2 cores' bound", tr.Scenario, tr.Load.Rate, tr.Error)
		}
	}
	e.Partition = Partition{Generator: "0", PostgREST: "1", PostgreSQL: "1"}
	if got := ServerCores(e, 2); got != 1 {
		t.Errorf("server cores under a partition of CPU 1: %d, want 1", got)
	}
}

// A cores sweep written for a larger machine is refused before any trial,
// naming the setting and the CPUs it needs.
func TestHostHasCPUs(t *testing.T) {
	e := &Experiment{Variants: []Variant{{Name: "cores-1", DropIn: map[string]string{"AllowedCPUs": "1"}}, {Name: "cores-3", DropIn: map[string]string{"AllowedCPUs": "1-3"}}}}
	err := hostHasCPUs(e, 2)
	if err == nil || !strings.Contains(err.Error(), "variant cores-3: dropin.AllowedCPUs 1-3 names CPU 2, but this host has CPUs 0-1: run it on a host with at least 4 CPUs") {
		t.Errorf("hostHasCPUs: %v", err)
	}
	if err := hostHasCPUs(e, 4); err != nil {
		t.Errorf("on 4 CPUs: %v", err)
	}
}
