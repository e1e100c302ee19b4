package reconcile

import (
	"context"
	"errors"

	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// DescribeDataset implements lab.DatasetDescriber: what the target's
// database holds (fixture.Describe over the admin connection).
func (l *Server) DescribeDataset(ctx context.Context) (lab.Dataset, error) {
	if l.cfg.AdminURI == "" {
		return lab.Dataset{}, errors.New("no connection to the target's database (target.pg_uri)")
	}
	d, err := fixture.Describe(ctx, l.cfg.AdminURI)
	if err != nil {
		return lab.Dataset{}, err
	}
	return DatasetOf(d), nil
}

// DatasetOf is the lab's record of a fixture's description.
func DatasetOf(d fixture.Dataset) lab.Dataset {
	return lab.Dataset{Kind: d.Kind, Seed: d.Seed, Files: d.Files, Loaded: d.Loaded, Rows: d.Rows, Schemas: d.Schemas, Checksum: d.Checksum}
}

// FixtureCommand implements lab.FixtureCommander: `lab fixture chinook
// --dir DIR` for the lab's own stack (whose state directory the server side
// works in), "" for an existing server, whose database the lab does not load.
func (l *Server) FixtureCommand() string {
	if l.cfg.TargetSpec == nil || l.cfg.StateDir == "" {
		return ""
	}
	return "lab fixture chinook --dir " + l.cfg.StateDir
}
