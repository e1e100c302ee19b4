package experiments

import (
	"reflect"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// The bundled experiments that read more than Chinook say so through what
// they run (db-schemas, big_rows paths), so the run refuses them up front
// on a database without it; every other one needs nothing more.
func TestBundledExperimentsNeeds(t *testing.T) {
	want := map[string]lab.DataNeeds{
		"schema-reload":      {Tables: []int{1000, 10000}},
		"memory-growth":      {Tables: []int{1000, 10000}},
		"large-responses":    {Rows: 1000000},
		"postgrest-loadtest": {Loadtest: true},
	}
	for _, n := range Names() {
		e, err := Load(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Needs(); !reflect.DeepEqual(got, want[n]) {
			t.Errorf("%s needs %+v, want %+v", n, got, want[n])
		}
	}
}
