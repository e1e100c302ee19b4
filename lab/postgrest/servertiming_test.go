package postgrest_test

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// TestPhaseClock: CPU time from Server-Timing's start (12.0) to 14.1, wall
// clock from 14.2 (PostgREST#4522: v14.2 and v16.0 have TimeIt.hs over
// getMonotonicTime, v14.1 System.TimeIt), unknown for main's development
// builds ("15"), for versions before Server-Timing and for nothing;
// postgrest-mini times on the wall clock. Bare versions and `--version`
// lines read alike.
func TestPhaseClock(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"13.0.8", postgrest.ClockCPU},
		{"PostgREST 13.0.8", postgrest.ClockCPU},
		{"12.0.0", postgrest.ClockCPU},
		{"14.0", postgrest.ClockCPU},
		{"PostgREST 14.1 (a1b2c3d)", postgrest.ClockCPU},
		{"14.2", postgrest.ClockWall},
		{"v14.17", postgrest.ClockWall},
		{"PostgREST 14.17\n", postgrest.ClockWall},
		{"16.0", postgrest.ClockWall},
		{"16.2", postgrest.ClockWall},
		{"PostgREST 15 (013f078)", ""},
		{"11.2.2", ""},
		{"", ""},
		{"something else", ""},
		{"postgrest-mini 0.1 (PostgREST-compatible subset)", postgrest.ClockWall},
	} {
		if got := postgrest.PhaseClock(c.version); got != c.want {
			t.Errorf("PhaseClock(%q) = %q, want %q", c.version, got, c.want)
		}
	}
}

// TestPhaseClockNote: builds on the same clock compare (no note); across
// 14.2 the note names both versions, their clocks and the fix.
func TestPhaseClockNote(t *testing.T) {
	if n := postgrest.PhaseClockNote("PostgREST 13.0.8", "14.1"); n != "" {
		t.Errorf("13.0.8 vs 14.1: %q", n)
	}
	if n := postgrest.PhaseClockNote("14.2", "PostgREST 16.0 (a1b2c3d)"); n != "" {
		t.Errorf("14.2 vs 16.0: %q", n)
	}
	if n := postgrest.PhaseClockNote("", ""); n != "" {
		t.Errorf("two unknown builds: %q", n)
	}
	const want = "13.0.8 reports CPU time, 14.17 wall clock (PostgREST #4522, 14.2): not comparable"
	if n := postgrest.PhaseClockNote("PostgREST 13.0.8", "PostgREST 14.17"); n != want {
		t.Errorf("13.0.8 vs 14.17: %q, want %q", n, want)
	}
	if n := postgrest.PhaseClockNote("14.17", "PostgREST 15 (013f078)"); n != "14.17 reports wall clock, 15 an unknown clock (PostgREST #4522, 14.2): not comparable" {
		t.Errorf("14.17 vs a main build: %q", n)
	}
}
