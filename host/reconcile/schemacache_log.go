package reconcile

import (
	"context"
	"regexp"
	"strconv"
	"time"
)

// PostgREST's own lines of a schema cache load, written at every log level
// (12.0 to 16: its SchemaCacheQueriedObs and SchemaCacheLoadedObs): the
// catalogue queries' time, then the time to build the cache from their
// result.
var (
	logSchemaQueried = regexp.MustCompile(`Schema cache queried in ([0-9]+(?:\.[0-9]+)?) milliseconds`)
	logSchemaLoaded  = regexp.MustCompile(`Schema cache loaded in ([0-9]+(?:\.[0-9]+)?) milliseconds`)
)

// schemaLog is a schema cache load as the target's log tells it.
type schemaLog struct {
	Queried, Loaded time.Duration
}

// Total is the load's whole time: the queries and the building.
func (s schemaLog) Total() time.Duration { return s.Queried + s.Loaded }

// parseSchemaLog finds the last complete schema cache load in log (its
// "loaded in" line after a "queried in" one); ok is false when it has
// none.
func parseSchemaLog(log string) (s schemaLog, ok bool) {
	loaded := logSchemaLoaded.FindAllStringSubmatchIndex(log, -1)
	if len(loaded) == 0 {
		return s, false
	}
	last := loaded[len(loaded)-1]
	queried := logSchemaQueried.FindAllStringSubmatchIndex(log[:last[0]], -1)
	if len(queried) == 0 {
		return s, false
	}
	q := queried[len(queried)-1]
	s.Queried = millis(log[q[2]:q[3]])
	s.Loaded = millis(log[last[2]:last[3]])
	return s, true
}

func millis(s string) time.Duration {
	f, _ := strconv.ParseFloat(s, 64)
	return time.Duration(f * float64(time.Millisecond))
}

// schemaCacheInLog is the last schema cache load the target's log shows
// after mark (its lines before the action; logSince), false when none.
func (l *Server) schemaCacheInLog(ctx context.Context, mark string) (schemaLog, bool) {
	tail, err := l.cfg.Ctl.LogTail(ctx, l.cfg.TargetUnit, crashLogLines)
	if err != nil {
		return schemaLog{}, false
	}
	return parseSchemaLog(logSince(tail, mark))
}
