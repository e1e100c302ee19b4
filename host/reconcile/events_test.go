package reconcile

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Every kind the telemetry adapter emits has a record kind, and each is
// fatal: an OOM kill, a crash and a restart the lab did not ask for all
// end a server's process in the trial, which then fails.
func TestEventKindsMapped(t *testing.T) {
	for _, k := range []string{telemetry.KindOOMKill, telemetry.KindCrash, telemetry.KindRestart} {
		if eventKinds[k] == "" {
			t.Errorf("telemetry kind %q has no record kind", k)
		}
		if !(lab.Event{Kind: eventKinds[k]}).Fatal() {
			t.Errorf("telemetry kind %q not fatal after mapping", k)
		}
	}
}

// The log written since a mark is what follows the mark's lines; memory
// running out is told in the lab's words.
func TestLogSinceAndMemoryDeath(t *testing.T) {
	tail := "a\npostgrest: Heap exhausted;\nb\nc\n"
	if got := logSince(tail, "b"); got != "c" {
		t.Errorf("since b: %q", got)
	}
	// A second death writes the same lines as the first: the mark is the
	// lines before the first death's end, so the second is after it.
	twice := "start 1\npostgrest: Heap exhausted;\nUse +RTS -M\nstart 2\npostgrest: Heap exhausted;\nUse +RTS -M\n"
	if got := logSince(twice, "start 1\npostgrest: Heap exhausted;\nUse +RTS -M"); memoryDeath(got) == "" {
		t.Errorf("the second death's lines are not after the first's mark: %q", got)
	}
	if got := logSince(tail, "gone"); got != tail {
		t.Errorf("mark not in the tail: %q, want the whole tail", got)
	}
	if d := memoryDeath(logSince(tail, "b")); d != "" {
		t.Errorf("an earlier death counted in the window: %q", d)
	}
	if d := memoryDeath(logSince(tail, "a")); !strings.Contains(d, "Heap exhausted") || !strings.Contains(d, "+RTS -M") {
		t.Errorf("heap exhausted: %q", d)
	}
	if d := memoryDeath("postgrest: out of memory (requested 1048576 bytes)\n"); !strings.Contains(d, "out of memory") || strings.Contains(d, "1048576") {
		t.Errorf("out of memory: %q (the lab's words, not the log's line)", d)
	}
}
