package labtest

import "testing"

// NewCluster starts a PostgreSQL cluster of the test's own (not the shared
// one Postgres returns), stopped and removed when the test ends: for
// tests that need two servers, e.g. that a store on another server is not
// the measured one.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	c, err := startCluster()
	if err != nil {
		Need(t, "PostgreSQL: %v", err)
	}
	t.Cleanup(c.stop)
	return c
}
