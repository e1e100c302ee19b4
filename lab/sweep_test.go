package lab

import (
	"slices"
	"testing"
)

// Ranges give clean text (no 0.30000000000000004), geometric ranges a log
// axis, and the cost order sorts numbers by their value, not their text.
func TestSweepAxisValues(t *testing.T) {
	for _, tc := range []struct {
		axis SweepAxis
		want []string
		geo  bool
	}{
		{SweepAxis{From: 0.1, To: 0.5, Step: 0.1}, []string{"0.1", "0.2", "0.3", "0.4", "0.5"}, false},
		{SweepAxis{From: 1, To: 64, Factor: 2, Unit: "MB"}, []string{"1MB", "2MB", "4MB", "8MB", "16MB", "32MB", "64MB"}, true},
		{SweepAxis{From: 10, To: 25, Step: 10}, []string{"10", "20"}, false},
		{SweepAxis{Values: []Scalar{"1", "2", "5", "10", "20", "50"}}, []string{"1", "2", "5", "10", "20", "50"}, true},
		{SweepAxis{Values: []Scalar{"-N1", "", "-A64m"}}, []string{"-N1", "", "-A64m"}, false},
	} {
		if got := tc.axis.List(); !slices.Equal(got, tc.want) || tc.axis.Geometric() != tc.geo {
			t.Errorf("%+v: %q geometric %v, want %q %v", tc.axis, got, tc.axis.Geometric(), tc.want, tc.geo)
		}
	}
	s := &Sweep{SweepAxis: SweepAxis{Key: "postgrest.db-pool", Values: []Scalar{"20", "5", "100"}, Baseline: "20"}}
	var names []string
	for _, p := range s.Points() {
		names = append(names, p.Variant)
	}
	if !slices.Equal(names, []string{"db-pool=5", "db-pool=20", "db-pool=100"}) || s.CostOrder() != CheapestAscending {
		t.Errorf("points %v order %s", names, s.CostOrder())
	}
	if s := (&Sweep{SweepAxis: SweepAxis{Key: "rts", Values: []Scalar{"-N1", "-N2"}}}); s.CostOrder() != CheapestListed {
		t.Errorf("text values: order %s, want listed", s.CostOrder())
	}
}

// A generated variant's swept setting is traced back to its value's place
// in the file; other fields to the shared [[variant]].
func TestSweepOrigin(t *testing.T) {
	e := &Experiment{Sweep: &Sweep{SweepAxis: SweepAxis{Key: "postgrest.db-pool", Values: []Scalar{"1", "x"}, Baseline: "1"},
		Cross: &SweepAxis{Key: "rts", From: 1, To: 2, Step: 1, Baseline: "1"}}}
	e.ExpandSweep()
	if len(e.Variants) != 4 || e.Variants[2].Name != "db-pool=x+rts=1" || !slices.Equal(e.Variants[2].Args, []string{"+RTS", "1", "-RTS"}) {
		t.Fatalf("variants %+v", e.Variants)
	}
	for _, tc := range []struct {
		i     int
		field []string
		want  []string
	}{
		{2, []string{"postgrest", "db-pool"}, []string{"sweep", "values[1]"}},
		{3, []string{"args"}, []string{"sweep", "cross", "from"}},
		{1, []string{"postgrest", "log-level"}, nil},
		{9, []string{"postgrest", "db-pool"}, nil},
	} {
		if got := e.Sweep.Origin(tc.i, tc.field); !slices.Equal(got, tc.want) {
			t.Errorf("Origin(%d, %v) = %v, want %v", tc.i, tc.field, got, tc.want)
		}
	}
}
