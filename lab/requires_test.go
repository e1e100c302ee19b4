package lab

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// datasetServer is a fakeServer whose database holds d.
type datasetServer struct {
	fakeServer
	d   Dataset
	err error
}

func (s *datasetServer) DescribeDataset(context.Context) (Dataset, error) { return s.d, s.err }
func (s *datasetServer) FixtureCommand() string                           { return "lab fixture chinook --dir /var/lab" }

func needsExperiment() *Experiment {
	e := testExperiment()
	e.Name = "schema-reload"
	e.Variants = []Variant{{Name: "chinook", Baseline: true, PostgREST: map[string]string{"db-schemas": "public"}},
		{Name: "tables-1k", PostgREST: map[string]string{"db-schemas": "public, gen1000"}},
		{Name: "tables-10k", PostgREST: map[string]string{"db-schema": `"public, gen10000"`}}}
	return e
}

// The experiment's needs come from its variants' db-schemas and its
// scenarios' big_rows paths; Missing says what a data set lacks of them.
func TestNeedsDerivedAndMissing(t *testing.T) {
	e := needsExperiment()
	e.Variants[1].PostgREST["db-schemas"] = "public, gen1000, test"
	e.Custom = []Scenario{{Name: "rows-1m", Path: "/big_rows?limit=1000000"}, {Name: "rows-10k", Path: "/big_rows?limit=10000"}, {Name: "other", Path: "/artist"}}
	n := e.Needs()
	if want := (DataNeeds{Tables: []int{1000, 10000}, Loadtest: true, Rows: 1000000}); !reflect.DeepEqual(n, want) {
		t.Fatalf("needs %+v, want %+v", n, want)
	}
	d := Dataset{Kind: DatasetGenerated, Seed: 3, Schemas: map[string]int{"gen1000": 1000, "gen50": 50}, Rows: map[string]int64{"big_rows": 10000}}
	m := n.Missing(d)
	if want := (DataNeeds{Tables: []int{10000}, Loadtest: true, Rows: 1000000}); !reflect.DeepEqual(m, want) {
		t.Fatalf("missing %+v, want %+v", m, want)
	}
	// The command makes what is missing and keeps what is there (gen50).
	if got, want := FixtureFlags(m, d), "--seed 3 --tables 50,1000,10000 --rows 1000000 --postgrest-loadtest"; got != want {
		t.Errorf("flags %q, want %q", got, want)
	}
	d.Schemas["gen10000"], d.Schemas["test"], d.Rows["big_rows"] = 10000, 5, 1000000
	if m := n.Missing(d); !m.None() {
		t.Errorf("all there, yet missing %+v", m)
	}
	if !(testExperiment().Needs()).None() {
		t.Error("an experiment on Chinook alone needs more")
	}
}

// A run whose data set lacks what the experiment reads is refused before
// any trial (nothing applied), with the command that makes it; one whose
// data set has it records the data set and runs.
func TestRunnerRefusesMissingDataUpFront(t *testing.T) {
	srv := &datasetServer{d: Dataset{Kind: DatasetGenerated, Seed: 1, Rows: map[string]int64{"artist": 275}, Checksum: "c"}}
	run, err := (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), needsExperiment())
	var mde *MissingDataError
	if !errors.As(err, &mde) || run != nil || len(srv.applied) != 0 {
		t.Fatalf("run %v, err %v, applied %v: want a MissingDataError before any trial", run, err, srv.applied)
	}
	if want := "schema-reload needs 1000 and 10000 extra tables: run lab fixture chinook --dir /var/lab --tables 1000,10000 (it rebuilds the database; then run again)"; err.Error() != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}

	srv.d.Schemas = map[string]int{"gen1000": 1000, "gen10000": 10000}
	run, err = (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), needsExperiment())
	if err != nil || run.Dataset == nil || !reflect.DeepEqual(*run.Dataset, srv.d) || len(run.Trials) == 0 {
		t.Fatalf("with the tables: err %v, dataset %+v, %d trials", err, run.Dataset, len(run.Trials))
	}

	// A data set the server cannot read is noted, not recorded, and the run goes on.
	srv.err = errors.New("no connection")
	if run, err = (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), needsExperiment()); err != nil || run.Dataset != nil {
		t.Fatalf("unreadable data set: err %v, dataset %+v", err, run.Dataset)
	}
}
