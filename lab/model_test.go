package lab

import (
	"strings"
	"testing"
)

// TestModelQuestions: every model answers each question as documented, and
// the loader's list of models comes from Models (efficiency is not one
// load: it is named with the reason).
func TestModelQuestions(t *testing.T) {
	type answers struct{ arrivals, fixed, closed, eachTrial, capacity, efficiency, oneLoad bool }
	want := map[Model]answers{
		ModelOpen:       {arrivals: true, fixed: true, oneLoad: true},
		ModelClosed:     {closed: true, oneLoad: true},
		ModelSearch:     {arrivals: true, eachTrial: true, capacity: true, oneLoad: true},
		ModelEfficiency: {capacity: true, efficiency: true},
		"bogus":         {},
	}
	if len(want) != len(Models)+1 {
		t.Fatalf("a model without answers: %v", Models)
	}
	for m, w := range want {
		got := answers{m.Arrivals(), m.FixedRate(), m.Closed(), m.SearchesEachTrial(), m.SearchesCapacity(), m.Efficiency(), m.OneLoad()}
		if got != w {
			t.Errorf("%s: %+v, want %+v", m, got, w)
		}
		if (m.CheckOneLoad() == nil) != w.oneLoad {
			t.Errorf("%s: CheckOneLoad = %v", m, m.CheckOneLoad())
		}
	}
	err := ModelEfficiency.CheckOneLoad()
	if err == nil || !strings.Contains(err.Error(), "allowed are open, closed, search; efficiency runs as") {
		t.Errorf("efficiency: %v", err)
	}
	if err := Model("x").Valid(); err == nil || !strings.Contains(err.Error(), "open, closed, search, efficiency") {
		t.Errorf("Valid: %v", err)
	}
}
