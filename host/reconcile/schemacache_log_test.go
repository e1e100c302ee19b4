package reconcile

import (
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
