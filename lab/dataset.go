package lab

import (
	"context"
	"time"
)

// The kinds of data set (Dataset.Kind), as internal/fixture marks its loads.
const (
	DatasetGenerated = "generated" // `lab fixture chinook`: the generated set of a seed
	DatasetFiles     = "files"     // `lab fixture load`: SQL files (the real chinook.sql and bench.sql, or others)
	DatasetUnknown   = "unknown"   // nothing marked the database
)

// Dataset is the data the target's database held at the run's start: what
// loaded it (Kind with Seed or Files, as the load marked it), the rows of
// each table the scenarios read, the tables of each generated schema
// (gen<N>; test, PostgREST's load-test schema) and a checksum of the data
// (equal checksums, the same rows). Its json tags are run.json's (the
// record's DatasetV1 is this type).
type Dataset struct {
	Kind   string    `json:"kind"`
	Seed   uint64    `json:"seed,omitempty"`
	Files  []string  `json:"files,omitempty"`
	Loaded time.Time `json:"loaded,omitzero"`
	// Rows are the rows of each Chinook table present, and of big_rows.
	Rows map[string]int64 `json:"rows,omitempty"`
	// Schemas are the tables of each generated schema present.
	Schemas  map[string]int `json:"schemas,omitempty"`
	Checksum string         `json:"checksum"`
}

// DatasetDescriber is a Server that can read what its target's database
// holds. The runner asks it once, at the run's start, before any trial:
// the record states the data set, and an experiment's requires are checked
// against it.
type DatasetDescriber interface {
	DescribeDataset(ctx context.Context) (Dataset, error)
}

// IDRange is an id a scenario's request asks for: drawn uniformly from
// Lo..Hi per request (a {rand LO HI} field; from the trial's seed, which
// trials.seed makes reproducible), or fixed (Lo = Hi), in the column of the
// query's filter (artist_id=eq.…). Its json tags are run.json's.
type IDRange struct {
	Column string `json:"column"`
	Lo     int64  `json:"lo"`
	Hi     int64  `json:"hi"`
}

// Fixed says the request always asks for the one id Lo.
func (r IDRange) Fixed() bool { return r.Lo == r.Hi }

// describeDataset asks the server side what the database holds (nil when
// it cannot say: a note, not an error; the run goes on unrecorded).
func (r *Runner) describeDataset(ctx context.Context) (*Dataset, error) {
	d, ok := r.Server.(DatasetDescriber)
	if !ok {
		return nil, nil
	}
	ds, err := d.DescribeDataset(ctx)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		r.Progress.Note("the data set is not recorded: " + err.Error())
		return nil, nil
	}
	return &ds, nil
}
