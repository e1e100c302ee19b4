package agent

import "testing"

// A window added after its lease's windows were drained is refused, so
// that the handler stops it: the lease that would have stopped it is
// gone (issue 27's review, finding 1).
func TestWindowsRefuseAfterDrain(t *testing.T) {
	ws := newWindows()
	if _, ok := ws.add(nil, 1, func() {}); !ok {
		t.Fatal("add before the drain refused")
	}
	if got := len(ws.drain()); got != 1 {
		t.Fatalf("drain: %d windows, want 1", got)
	}
	cancelled := false
	if w, ok := ws.add(nil, 2, func() { cancelled = true }); ok || w != nil {
		t.Fatalf("add after the drain: %v %v, want a refusal", w, ok)
	}
	if cancelled {
		t.Fatal("add called the cancel function; stopping is the caller's")
	}
	if got := len(ws.drain()); got != 0 {
		t.Fatalf("a second drain: %d windows, want 0", got)
	}
}
