package agent

import "testing"

// A window added after its session's windows were drained is refused, so
// that the handler stops it: the session that would have stopped it is
// gone (round 3, finding 1).
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
