package telemetry

import (
	"testing"
	"time"
)

func TestBudgetSpacesDetails(t *testing.T) {
	b := newBudget(0.01, 100*time.Millisecond) // 1 ms of CPU per tick allowed
	b.observe(300 * time.Microsecond)
	if b.every != 1 {
		t.Fatalf("cheap ticks: every %d, want 1", b.every)
	}
	for i := 0; i < 20; i++ {
		b.observe(3500 * time.Microsecond) // converges to 3.5 ms
	}
	if b.every != 4 {
		t.Fatalf("3.5 ms per detailed tick: every %d, want 4", b.every)
	}
	n := 0
	for i := 0; i < 40; i++ {
		if b.detail() {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d detailed ticks of 40, want 10", n)
	}
	off := newBudget(0, time.Second)
	off.observe(time.Hour)
	if off.every != 1 {
		t.Errorf("budget 0 (off): every %d, want 1", off.every)
	}
}
