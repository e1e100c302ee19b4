package reconcile

import (
	"strings"
	"testing"
	"time"
)

// The last complete load of a log (PostgREST 13 to 16 write the same
// lines): its queries' time and its building's, however the lines are
// prefixed; a load still being made (queried, not yet loaded) and a log
// without one are not loads.
func TestParseSchemaLog(t *testing.T) {
	log := `05/Dec/2026:21:00:00 +0000: Schema cache queried in 100.0 milliseconds
05/Dec/2026:21:00:00 +0000: Schema cache loaded 10 Relations, 4 Relationships, 3 Functions
05/Dec/2026:21:00:00 +0000: Schema cache loaded in 2.5 milliseconds
05/Dec/2026:21:00:09 +0000: Schema cache queried in 1234.5 milliseconds
05/Dec/2026:21:00:09 +0000: Schema cache loaded 10010 Relations, 10004 Relationships, 3 Functions
05/Dec/2026:21:00:10 +0000: Schema cache loaded in 310.2 milliseconds
`
	s, ok := parseSchemaLog(log)
	if !ok || s.Queried != 1234500*time.Microsecond || s.Loaded != 310200*time.Microsecond || s.Total() != 1544700*time.Microsecond {
		t.Errorf("got %+v %v, want 1234.5 ms + 310.2 ms", s, ok)
	}
	if _, ok := parseSchemaLog(log + "05/Dec/2026:21:01:00 +0000: Schema cache queried in 5.0 milliseconds\n"); !ok {
		t.Error("a load under way hides the last complete one")
	}
	for _, bad := range []string{"", "Listening on port 3000\n", "Schema cache loaded in 2.5 milliseconds\n"} {
		if _, ok := parseSchemaLog(bad); ok {
			t.Errorf("%q: a load", bad)
		}
	}
}

// An event's length is the log's whole load when the log told it, else
// the /metrics gauge, which PostgREST fills with the building's
// milliseconds (not seconds, whatever its name says).
func TestSchemaCacheEvent(t *testing.T) {
	e := schemaCacheEvent(439.07, 2, true, schemaLog{Queried: 1619400 * time.Microsecond, Loaded: 439100 * time.Microsecond}, true)
	if e.Duration != 2058500*time.Microsecond || !strings.Contains(e.Detail, "queried in 1619.4 ms, built in 439.1 ms") || !strings.Contains(e.Detail, "439.1 (the building's ms; load 2)") {
		t.Errorf("log and metrics: %v %q", e.Duration, e.Detail)
	}
	if e := schemaCacheEvent(1.13, 1, true, schemaLog{}, false); e.Duration != 1130*time.Microsecond {
		t.Errorf("metrics alone: %v, want 1.13 ms", e.Duration)
	}
}
