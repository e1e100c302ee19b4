package reconcile

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Every kind the telemetry adapter emits has a record kind, and a fatal
// one (OOM kill, crash) stays fatal, so the run loop repeats its trial.
func TestEventKindsMapped(t *testing.T) {
	for _, k := range []string{telemetry.KindOOMKill, telemetry.KindCrash, telemetry.KindRestart} {
		if eventKinds[k] == "" {
			t.Errorf("telemetry kind %q has no record kind", k)
		}
	}
	if !(lab.Event{Kind: eventKinds[telemetry.KindOOMKill]}).Fatal() || !(lab.Event{Kind: eventKinds[telemetry.KindCrash]}).Fatal() {
		t.Error("OOM kill or crash not fatal after mapping")
	}
	if (lab.Event{Kind: eventKinds[telemetry.KindRestart]}).Fatal() {
		t.Error("restart counted as fatal")
	}
}
