package capability

// DefaultEnv are the environment variables an agent allows when its config
// says nothing, by exact name (no wildcard): PostgREST's variables for
// pool and performance keys, and GHCRTS (runtime tuning flags only).
var DefaultEnv = []string{
	"GHCRTS",
	"PGRST_DB_POOL",
	"PGRST_DB_POOL_ACQUISITION_TIMEOUT",
	"PGRST_DB_POOL_MAX_IDLETIME",
	"PGRST_DB_POOL_MAX_LIFETIME",
	"PGRST_DB_PREPARED_STATEMENTS",
	"PGRST_DB_CHANNEL_ENABLED",
	"PGRST_DB_MAX_ROWS",
	"PGRST_JWT_CACHE_MAX_ENTRIES",
	"PGRST_LOG_LEVEL",
	"PGRST_SERVER_TIMING_ENABLED",
}

// DefaultDropIn are the drop-in settings an agent allows by default: all
// the table knows.
func DefaultDropIn() []string { return DropInKeys() }
