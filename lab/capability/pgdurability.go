package capability

import "strings"

// pgThrowaway are PostgreSQL settings that trade the cluster's integrity
// for speed: off, a crash of the host can leave the cluster corrupt, not
// just a few transactions short (synchronous_commit = off loses only the
// last commits, and stays an ordinary setting). A variant may set them in a
// local experiment; an agent may allow them only for the lab's own stack,
// a cluster the lab made and can make again, never for an operator's
// [target] database.
var pgThrowaway = map[string]string{
	"fsync":            "= off lets a crash of the host corrupt the whole cluster (PostgreSQL's docs: restore from a backup)",
	"full_page_writes": "= off lets a crash of the host leave torn pages that the WAL cannot repair",
}

// Throwaway says why a PostgreSQL setting belongs only on a throwaway
// cluster ("" when it does not), compared in lower case as PostgreSQL
// does.
func Throwaway(name string) string { return pgThrowaway[strings.ToLower(name)] }
