package lab

import (
	"context"
	"strings"
	"testing"
	"time"
)

// specLoader records every spec it is given and answers a search with a
// capacity of 2000 req/s.
type specLoader struct{ specs []LoadSpec }

func (l *specLoader) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	l.specs = append(l.specs, spec)
	if spec.Load.Model == ModelSearch {
		return LoadOutcome{Stats: LoadStats{Model: ModelSearch, Requests: 6000, Rate: 2000, Seconds: 3},
			Curve: []CurvePoint{{AskedRate: 2000, Rate: 2000, OK: true}, {AskedRate: 4000, Rate: 2300}}}, nil
	}
	if spec.Load.Model == ModelClosed {
		return LoadOutcome{Stats: LoadStats{Model: ModelClosed, Requests: 7500, Rate: 2500, Seconds: 3}}, nil
	}
	return LoadOutcome{Stats: LoadStats{Model: spec.Load.Model, Requests: 1000, Rate: spec.Load.Rate, Seconds: 1}}, nil
}

// The efficiency model searches the baseline's capacity once, briefly,
// then runs every trial (warm-up included) with the open model at
// utilisation × capacity, and records the search in the run.
func TestEfficiencyModel(t *testing.T) {
	e := testExperiment()
	e.Load = Load{Model: ModelEfficiency, Duration: 8 * time.Second, Warmup: 2 * time.Second}
	e.Defaults()
	if e.Load.EffectiveUtilisation() != DefaultUtilisation || e.Load.CapacityLimit().ErrorRate() != 0.001 {
		t.Fatalf("defaults: %+v", e.Load)
	}
	srv, ld := &fakeServer{}, &specLoader{}
	run, err := (&Runner{Server: srv, Loader: ld, Decided: FixedRounds}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if srv.applied[0] != "tcp" || ld.specs[0].Load.Model != ModelSearch || ld.specs[0].Load.Duration != capacityStep || ld.specs[0].Load.Warmup != capacityWarmup ||
		ld.specs[0].Load.Limit.ErrorRate() != 0.001 {
		t.Fatalf("first: applied %v, spec %+v; want a short search on the baseline", srv.applied, ld.specs[0].Load)
	}
	if cl := ld.specs[1].Load; cl.Model != ModelClosed || cl.Connections != capacityConnections || cl.Duration != capacityStep {
		t.Errorf("second: %+v; want a short closed run with %d connections", cl, capacityConnections)
	}
	for _, s := range ld.specs[2:] {
		if s.Load.Model != ModelOpen || s.Load.Rate != 1300 {
			t.Errorf("trial load %s at %v req/s, want open at 0.65 × 2000 = 1300", s.Load.Model, s.Load.Rate)
		}
	}
	if len(run.Capacity) != 1 || run.Capacity[0].Found != 2000 || run.Capacity[0].Rate != 1300 || len(run.Capacity[0].Curve) != 2 ||
		run.Capacity[0].Closed != 2500 || run.Capacity[0].ClosedConnections != capacityConnections || run.Capacity[0].Limit.ErrorRate() != 0.001 {
		t.Errorf("capacity %+v", run.Capacity)
	}
	if run.Experiment.Load.Model != ModelEfficiency || PrimaryMetric(&run.Experiment).Name != "cpu" {
		t.Errorf("record: model %q, primary %q", run.Experiment.Load.Model, PrimaryMetric(&run.Experiment).Name)
	}
	if len(run.Trials) != 2*e.Trials.Max {
		t.Errorf("%d trials", len(run.Trials))
	}
}

func TestEfficiencyValidation(t *testing.T) {
	e := testExperiment()
	e.Load = Load{Model: ModelEfficiency, Duration: time.Second, Utilisation: 1.2}
	errs := e.Validate()
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "load.utilisation: 1.2 must be in (0, 1)") {
		t.Errorf("errors %v", errs)
	}
}
