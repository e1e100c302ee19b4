package configs

import "github.com/pgrst-lab/pgrst-lab/lab/postgrest"

// EnvForm turns settings (key -> resolved text) into the PGRST_*
// environment variables PostgREST reads, for a target configured through a
// systemd unit's Environment= lines: db-pool -> PGRST_DB_POOL,
// app.settings.x -> PGRST_APP_SETTINGS_x.
func EnvForm(settings map[string]string) map[string]string {
	out := make(map[string]string, len(settings))
	for k, v := range settings {
		out[postgrest.EnvVar(k)] = v
	}
	return out
}
