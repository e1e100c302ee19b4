package postgrest

import "strings"

// EnvVar is the environment variable PostgREST reads for a key:
// PGRST_ + the key upper-cased with - turned into _ (app.settings.x is
// PGRST_APP_SETTINGS_x).
func EnvVar(key string) string {
	if rest, ok := strings.CutPrefix(key, "app.settings."); ok {
		return "PGRST_APP_SETTINGS_" + rest
	}
	return "PGRST_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// EnvKey is the PostgREST key an environment variable sets: PGRST_DB_POOL
// sets db-pool, PGRST_APP_SETTINGS_x sets app.settings.x. ok is false for
// a name that is not PGRST_*.
func EnvKey(name string) (key string, ok bool) {
	rest, ok := strings.CutPrefix(name, "PGRST_")
	if !ok || rest == "" {
		return "", false
	}
	if s, ok := strings.CutPrefix(rest, "APP_SETTINGS_"); ok && s != "" {
		return "app.settings." + s, true
	}
	return strings.ToLower(strings.ReplaceAll(rest, "_", "-")), true
}
