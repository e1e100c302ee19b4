package telemetry

import "maps"

// DBDelta is the database work between two readings.
type DBDelta struct {
	Seconds float64
	// Reset is true when the statistics were reset between the readings;
	// the differences are then meaningless.
	Reset bool

	XactCommit   int64
	XactRollback int64
	TupReturned  int64
	TupFetched   int64
	TupInserted  int64
	TupUpdated   int64
	TupDeleted   int64
	BlksRead     int64
	BlksHit      int64

	Statements     bool  // both readings had pg_stat_statements
	StatementCalls int64 // statements executed (all users of the database)

	Backends map[string]int // at the end reading
}

// Delta is the work done from reading a to reading b. The readings' own
// transactions (a's after its read, and b's flush) are subtracted when b
// could flush them (PostgreSQL 15+; same connection for both readings).
// With readings in between, sum the deltas of consecutive readings (Add):
// Delta(a, c) would count b's own transactions.
func Delta(a, b DBCounters) DBDelta {
	d := DBDelta{
		Seconds:      b.T.Sub(a.T).Seconds(),
		Reset:        !a.StatsReset.Equal(b.StatsReset) || b.XactCommit < a.XactCommit,
		XactCommit:   b.XactCommit - a.XactCommit,
		XactRollback: b.XactRollback - a.XactRollback,
		TupReturned:  b.TupReturned - a.TupReturned,
		TupFetched:   b.TupFetched - a.TupFetched,
		TupInserted:  b.TupInserted - a.TupInserted,
		TupUpdated:   b.TupUpdated - a.TupUpdated,
		TupDeleted:   b.TupDeleted - a.TupDeleted,
		BlksRead:     b.BlksRead - a.BlksRead,
		BlksHit:      b.BlksHit - a.BlksHit,
		Statements:   a.Statements && b.Statements,
		Backends:     maps.Clone(b.Backends),
	}
	if d.Statements {
		d.StatementCalls = b.StatementCalls - a.StatementCalls
	}
	if b.Flushed && !d.Reset {
		d.XactCommit -= a.OwnCommits + 1 // + b's flush statement
		d.XactRollback -= a.OwnRollbacks
	}
	return d
}

// Transactions is commits plus rollbacks.
func (d DBDelta) Transactions() int64 { return d.XactCommit + d.XactRollback }

// DBPerRequest relates database work to HTTP requests served.
type DBPerRequest struct {
	Statements   float64 // 0 when pg_stat_statements was not available
	Transactions float64
	TupReturned  float64
}

// PerRequest divides the work by the number of HTTP requests; zero when
// requests <= 0.
func (d DBDelta) PerRequest(requests int64) DBPerRequest {
	if requests <= 0 {
		return DBPerRequest{}
	}
	n := float64(requests)
	return DBPerRequest{
		Statements:   float64(d.StatementCalls) / n,
		Transactions: float64(d.Transactions()) / n,
		TupReturned:  float64(d.TupReturned) / n,
	}
}

// SumDeltas is the work from the first reading to the last, summed over
// consecutive pairs so that the readings in between count as nothing.
func SumDeltas(readings ...DBCounters) DBDelta {
	var d DBDelta
	for i := 1; i < len(readings); i++ {
		if i == 1 {
			d = Delta(readings[0], readings[1])
		} else {
			d = d.Add(Delta(readings[i-1], readings[i]))
		}
	}
	return d
}

// Add sums two consecutive deltas (the Backends of the later one are kept).
func (d DBDelta) Add(e DBDelta) DBDelta {
	return DBDelta{
		Seconds:        d.Seconds + e.Seconds,
		Reset:          d.Reset || e.Reset,
		XactCommit:     d.XactCommit + e.XactCommit,
		XactRollback:   d.XactRollback + e.XactRollback,
		TupReturned:    d.TupReturned + e.TupReturned,
		TupFetched:     d.TupFetched + e.TupFetched,
		TupInserted:    d.TupInserted + e.TupInserted,
		TupUpdated:     d.TupUpdated + e.TupUpdated,
		TupDeleted:     d.TupDeleted + e.TupDeleted,
		BlksRead:       d.BlksRead + e.BlksRead,
		BlksHit:        d.BlksHit + e.BlksHit,
		Statements:     d.Statements && e.Statements,
		StatementCalls: d.StatementCalls + e.StatementCalls,
		Backends:       maps.Clone(e.Backends),
	}
}
