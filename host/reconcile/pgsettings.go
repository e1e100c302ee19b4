package reconcile

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// pgSettings resets the PostgreSQL settings a previous variant set and
// sets the wanted ones (ALTER SYSTEM through the journal), as the plan
// says, and lists the wanted ones as changes (also when they were already
// set: the report lists a variant's changes against the original).
func (e *executor) pgSettings(ctx context.Context) error {
	if e.p.pgReset || e.p.pgSet {
		if err := e.setPG(ctx); err != nil {
			return err
		}
	}
	set := e.cur.pg.set
	for _, n := range slices.Sorted(maps.Keys(set)) {
		e.changes = append(e.changes, lab.Change{Where: "postgresql", Key: n,
			From: capability.RedactPostgreSQL(n, e.cur.pg.before[n]), To: capability.RedactPostgreSQL(n, set[n])})
	}
	return nil
}

func (e *executor) setPG(ctx context.Context) error {
	conn, err := e.l.connect(ctx)
	if err != nil {
		if e.restore {
			return e.resetPGOffline(err)
		}
		return err
	}
	defer conn.Close(ctx)
	if e.p.pgReset {
		if err := e.resetPG(ctx, conn); err != nil {
			return err
		}
	}
	if !e.p.pgSet {
		return nil
	}
	want := e.in.want.pg.set
	names := slices.Sorted(maps.Keys(want))
	info, err := configs.PGSettings(ctx, conn, names)
	if err != nil {
		return err
	}
	e.cur.pg = pgApplied{set: want, broken: true}
	need, err := configs.ApplyPGSettings(ctx, conn, e.l.journal, want)
	if err != nil {
		return err
	}
	e.pgNeed = e.pgNeed || need
	before := map[string]string{}
	for _, n := range names {
		before[n] = info[n].Setting
	}
	e.cur.pg = pgApplied{set: want, before: before}
	return nil
}

// resetPG puts back what the journal holds of PostgreSQL settings.
func (e *executor) resetPG(ctx context.Context, conn *pgx.Conn) error {
	need, err := configs.RestorePGSettings(ctx, conn, e.l.journal)
	e.pgNeed = e.pgNeed || need
	if err != nil {
		e.cur.pg.broken = true
		if e.restore {
			return fmt.Errorf("restore PostgreSQL settings: %w", err)
		}
		return err
	}
	e.cur.pg = pgApplied{}
	return nil
}

// resetPGOffline restores postgresql.auto.conf from the journal's copy
// when PostgreSQL does not answer: a variant may keep it from starting
// (shared_buffers = 200GB), so no ALTER SYSTEM then, but the original
// bytes and a restart.
func (e *executor) resetPGOffline(connErr error) error {
	e.l.cfg.Logf("PostgreSQL does not answer (%v); restoring postgresql.auto.conf from the journal's copy", connErr)
	if _, err := configs.RestorePGSettingsOffline(e.l.journal); err != nil {
		e.cur.pg.broken = true
		return fmt.Errorf("restore PostgreSQL settings offline: %w", err)
	}
	e.cur.pg, e.pgNeed = pgApplied{}, true
	return nil
}

// restartPG restarts PostgreSQL when the plan or a setting asks for it.
func (e *executor) restartPG(ctx context.Context) error {
	if !e.p.pgRestart && !e.pgNeed {
		return nil
	}
	err := e.l.restartPG(ctx)
	e.cur.pgUnknown = err != nil
	return err
}
