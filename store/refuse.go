package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
)

// ErrMeasuredStore is the error (errors.Is) of a store on the PostgreSQL
// cluster a run measures.
var ErrMeasuredStore = errors.New("the store is on the PostgreSQL server being measured")

// cluster is what identifies a PostgreSQL cluster over a connection.
type cluster struct {
	SystemID int64  // pg_control_system().system_identifier: set by initdb
	Database string // current_database()
}

// RefuseMeasured returns an error wrapping ErrMeasuredStore when the store
// at storeURI is on the same PostgreSQL cluster as any of
// measuredAdminURIs (the measured stack's admin connections; "" ones are
// skipped). The cluster is compared, not the database: a store in
// another database of the measured server still shares its CPUs, WAL and
// buffers, and its writes would disturb the measurements. A connection
// error on either side is returned as it is (the store must be reachable
// before a run starts).
func RefuseMeasured(ctx context.Context, storeURI string, measuredAdminURIs ...string) error {
	st, err := clusterOf(ctx, storeURI)
	if err != nil {
		return fmt.Errorf("store %s: %w", connstr.Redact(storeURI), err)
	}
	for _, m := range measuredAdminURIs {
		if m == "" {
			continue
		}
		mc, err := clusterOf(ctx, m)
		if err != nil {
			return fmt.Errorf("the measured PostgreSQL %s: %w", connstr.Redact(m), err)
		}
		if mc.SystemID == st.SystemID {
			return fmt.Errorf("store %s (database %s) is on the measured PostgreSQL cluster (%s, system identifier %d): %w; its writes would disturb the measurements: use a database on another server",
				connstr.Redact(storeURI), st.Database, connstr.Redact(m), st.SystemID, ErrMeasuredStore)
		}
	}
	return nil
}

func clusterOf(ctx context.Context, uri string) (cluster, error) {
	conn, err := pgx.Connect(ctx, uri)
	if err != nil {
		return cluster{}, redactErr(err, uri)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var c cluster
	err = conn.QueryRow(ctx, "SELECT system_identifier, current_database() FROM pg_control_system()").Scan(&c.SystemID, &c.Database)
	if err != nil {
		return cluster{}, fmt.Errorf("which cluster: %w", err)
	}
	return c, nil
}
