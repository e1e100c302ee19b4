package calibrate_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func TestParseEffects(t *testing.T) {
	got, err := calibrate.ParseEffects("1, 2%,3x10,5 x 2", 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []calibrate.Effect{{1, 3}, {2, 3}, {3, 10}, {5, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := calibrate.ParseEffects("", 3); err != nil || len(got) != 0 {
		t.Errorf("empty: %v %v", got, err)
	}
	for in, wantErr := range map[string]string{
		"0":      "not an effect in (0, 50]",
		"60":     "not an effect",
		"3x0":    "runs after x must be a number in 1..200",
		"3xmany": "runs after x",
		"3,3x2":  "named twice",
		"abc":    "not an effect",
	} {
		if _, err := calibrate.ParseEffects(in, 3); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%q: error %v, want %q", in, err, wantErr)
		}
	}
}

func TestScheduleInterleaves(t *testing.T) {
	got := calibrate.Schedule(2, []calibrate.Effect{{1, 1}, {3, 3}})
	want := []calibrate.Planned{{0, 1}, {1, 1}, {3, 1}, {0, 2}, {3, 2}, {3, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := calibrate.Schedule(1, nil); !reflect.DeepEqual(got, []calibrate.Planned{{0, 1}}) {
		t.Errorf("A/A only: %v", got)
	}
	if s := calibrate.PlanText(1, []calibrate.Effect{{3, 10}}); s != "A/A ×1, 3% ×10" {
		t.Errorf("PlanText %q", s)
	}
}

func TestSoFar(t *testing.T) {
	outs := []calibrate.Outcome{
		{EffectPct: 0, Rounds: 6},
		{EffectPct: 3, Rounds: 8, Significant: true, Outcome: stats.Worse},
		{EffectPct: 3, Rounds: 24},
		{EffectPct: 3, Rounds: 9, Significant: true, Outcome: stats.Better}, // the wrong way: not a detection
	}
	if s := calibrate.SoFar(outs, 3); s != "3%: 1 of 3 runs detected it" {
		t.Errorf("3%%: %q", s)
	}
	if s := calibrate.SoFar(outs, 0); s != "A/A: 0 of 1 runs declared a difference (false positives)" {
		t.Errorf("A/A: %q", s)
	}
}
