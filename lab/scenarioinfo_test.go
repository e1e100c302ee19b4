package lab

import (
	"context"
	"testing"
)

// describingLoader is a fakeLoader that describes its scenarios and
// answers each trial with a different weight.
type describingLoader struct {
	fakeLoader
	asked []string
}

func (l *describingLoader) DescribeScenario(spec LoadSpec) (ScenarioInfo, error) {
	l.asked = append(l.asked, spec.Scenario)
	return ScenarioInfo{Requests: []AskedRequest{{Method: "GET", Path: "/artist?select=*&artist_id=eq.3"}}}, nil
}

func (l *describingLoader) Load(ctx context.Context, spec LoadSpec) (LoadOutcome, error) {
	out, err := l.fakeLoader.Load(ctx, spec)
	out.Stats.Requests = int64(1000 * l.calls)
	out.Stats.BytesIn = int64(287_000*l.calls + 5)
	return out, err
}

// The run records, per scenario, what the Loader says it asks (asked once
// per scenario, before the trials) and the mean bytes per answer over its
// trials: their bytes over their requests, warm-ups aside.
func TestRunRecordsWhatEachScenarioAskedAndWeighed(t *testing.T) {
	ld := &describingLoader{}
	e := testExperiment()
	e.Load.Warmup = 0
	run, err := (&Runner{Server: &fakeServer{}, Loader: ld, Decided: FixedRounds}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.asked) != 1 || ld.asked[0] != "GETSingle" || len(run.Scenarios) != 1 {
		t.Fatalf("described %v, recorded %+v", ld.asked, run.Scenarios)
	}
	var bytes, reqs int64
	for _, tr := range run.Trials {
		bytes += tr.Load.BytesIn
		reqs += tr.Load.Requests
	}
	sc := run.Scenarios[0]
	if sc.Name != "GETSingle" || len(sc.Requests) != 1 || sc.Requests[0].Path != "/artist?select=*&artist_id=eq.3" {
		t.Errorf("recorded %+v", sc)
	}
	if want := float64(bytes) / float64(reqs); sc.AnswerBytes != want || sc.Answers != reqs || len(run.Trials) != 8 {
		t.Errorf("answers %v bytes over %d, want %v over %d (%d trials)", sc.AnswerBytes, sc.Answers, want, reqs, len(run.Trials))
	}

	// A Loader that cannot describe leaves the name and the weight.
	run, err = (&Runner{Server: &fakeServer{}, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Scenarios) != 1 || run.Scenarios[0].Name != "GETSingle" || run.Scenarios[0].Requests != nil || run.Scenarios[0].Answers != 8000 {
		t.Errorf("without a describer: %+v", run.Scenarios)
	}
}

// Trials that do not count (an error) are left out of the weight.
func TestAnswerWeightCountsTheTrialsThatCount(t *testing.T) {
	trials := []Trial{
		{Scenario: "a", Load: LoadStats{Requests: 10, BytesIn: 1000}},
		{Scenario: "a", Load: LoadStats{Requests: 30, BytesIn: 5000}},
		{Scenario: "a", Error: "crashed", Load: LoadStats{Requests: 100, BytesIn: 1}},
		{Scenario: "b", Load: LoadStats{Requests: 1, BytesIn: 1}},
	}
	if m, n := AnswerWeight(trials, "a"); m != 150 || n != 40 {
		t.Errorf("a: %v over %d, want 150 over 40", m, n)
	}
	if m, n := AnswerWeight(trials, "c"); m != 0 || n != 0 {
		t.Errorf("c: %v over %d", m, n)
	}
}
