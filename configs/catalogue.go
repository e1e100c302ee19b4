package configs

import (
	"sort"
	"strconv"
	"strings"
)

// Type is the type PostgREST gives a config key's value.
type Type string

// Config value types.
const (
	TypeString Type = "string"
	TypeInt    Type = "int"
	TypeBool   Type = "bool"
	TypeEnum   Type = "enum" // one of Key.Values
	TypeOctal  Type = "octal"
	TypeList   Type = "list" // comma-separated string
)

// Key describes one PostgREST config key.
type Key struct {
	Name       string
	Type       Type
	Default    string   // "" when unset by default
	Since      string   // first PostgREST version with this key
	Until      string   // first version without it ("" if still present)
	Reloadable bool     // applied by a config reload (SIGUSR2 / NOTIFY pgrst)
	DefaultOf  string   // the key whose value is the default, when not a constant (Default is then "")
	Values     []string // allowed values of an enum
	AliasOf    string   // the current name, for an old alias
	Doc        string
}

// EnvName is the environment variable PostgREST reads for the key.
func (k Key) EnvName() string { return EnvVar(k.Name) }

var catalogue = func() map[string]Key {
	m := map[string]Key{}
	for _, k := range keys {
		m[k.Name] = k
	}
	return m
}()

// keys is PostgREST's config reference (docs/references/configuration.rst
// and Config.hs), current as of v12/v13. The keys and defaults present in a
// release are checked against `postgrest --dump-config` of the real binary
// (configs/real_test.go, PostgREST 13.0.8).
var keys = []Key{
	{Name: "admin-server-host", Type: TypeString, DefaultOf: "server-host", Since: "12.2", Doc: "host of the admin server (defaults to server-host)"},
	{Name: "admin-server-port", Type: TypeInt, Since: "10.0", Doc: "port of the admin server (/live, /ready; /metrics since 12.2)"},
	{Name: "app.settings.*", Type: TypeString, Since: "5.0", Reloadable: true, Doc: "arbitrary settings available to SQL as current_setting('app.settings.x')"},
	{Name: "client-error-verbosity", Type: TypeEnum, Default: "verbose", Since: "14.0", Reloadable: true, Values: []string{"minimal", "verbose"}, Doc: "detail in error responses"},
	{Name: "db-aggregates-enabled", Type: TypeBool, Default: "false", Since: "12.0", Reloadable: true, Doc: "allow aggregate functions in select"},
	{Name: "db-anon-role", Type: TypeString, Since: "0.3", Reloadable: true, Doc: "role for unauthenticated requests"},
	{Name: "db-channel", Type: TypeString, Default: "pgrst", Since: "8.0", Reloadable: true, Doc: "LISTEN channel for reload notifications"},
	{Name: "db-channel-enabled", Type: TypeBool, Default: "true", Since: "8.0", Reloadable: true, Doc: "LISTEN for NOTIFY reloads"},
	{Name: "db-config", Type: TypeBool, Default: "true", Since: "9.0", Reloadable: true, Doc: "read in-database configuration (ALTER ROLE ... SET pgrst.x)"},
	{Name: "db-extra-search-path", Type: TypeList, Default: "public", Since: "7.0", Reloadable: true, Doc: "schemas added to search_path of every request"},
	{Name: "db-hoisted-tx-settings", Type: TypeList, Default: "statement_timeout,plan_filter.statement_cost_limit,default_transaction_isolation", Since: "12.2", Reloadable: true, Doc: "function settings applied to the transaction"},
	{Name: "db-max-rows", Type: TypeInt, Since: "0.3", Reloadable: true, Doc: "hard limit on rows returned by a read"},
	{Name: "db-plan-enabled", Type: TypeBool, Default: "false", Since: "10.0", Reloadable: true, Doc: "allow Accept: application/vnd.pgrst.plan"},
	{Name: "db-pool", Type: TypeInt, Default: "10", Since: "0.3", Doc: "size of the connection pool"},
	{Name: "db-pool-acquisition-timeout", Type: TypeInt, Default: "10", Since: "10.1", Doc: "seconds to wait for a pool connection before 504 (PGRST003)"},
	{Name: "db-pool-automatic-recovery", Type: TypeBool, Default: "true", Since: "12.0", Reloadable: true, Doc: "reconnect when the database goes away"},
	{Name: "db-pool-max-idletime", Type: TypeInt, Default: "30", Since: "10.2", Doc: "seconds before an idle connection is closed"},
	{Name: "db-pool-max-lifetime", Type: TypeInt, Default: "1800", Since: "10.2", Doc: "seconds before a connection is recycled"},
	{Name: "db-pool-timeout", Type: TypeInt, Default: "30", Since: "0.3", AliasOf: "db-pool-max-idletime", Doc: "old name of db-pool-max-idletime"},
	{Name: "db-pre-config", Type: TypeString, Since: "11.0", Reloadable: true, Doc: "function run before loading in-database config"},
	{Name: "db-pre-request", Type: TypeString, Since: "7.0", Reloadable: true, Doc: "function called before every request"},
	{Name: "db-prepared-statements", Type: TypeBool, Default: "true", Since: "8.0", Reloadable: true, Doc: "use prepared statements (about 30% more throughput on simple GETs)"},
	{Name: "db-root-spec", Type: TypeString, Since: "9.0", Reloadable: true, Doc: "function answering GET /"},
	{Name: "db-schema", Type: TypeList, Default: "public", Since: "0.3", AliasOf: "db-schemas", Doc: "old name of db-schemas"},
	{Name: "db-schemas", Type: TypeList, Default: "public", Since: "7.0", Reloadable: true, Doc: "schemas exposed over the API"},
	{Name: "db-tx-end", Type: TypeEnum, Default: "commit", Since: "6.0", Reloadable: true, Values: []string{"commit", "commit-allow-override", "rollback", "rollback-allow-override"}, Doc: "how transactions end"},
	{Name: "db-uri", Type: TypeString, Default: "postgresql://", Since: "0.3", Doc: "connection string (URI or key=value; @file reads it from a file)"},
	{Name: "jwt-aud", Type: TypeString, Since: "5.0", Reloadable: true, Doc: "expected JWT audience"},
	{Name: "jwt-cache-max-entries", Type: TypeInt, Default: "1000", Since: "14.0", Reloadable: true, Doc: "JWT validation cache size"},
	{Name: "jwt-cache-max-lifetime", Type: TypeInt, Default: "0", Since: "12.0", Until: "14.0", Reloadable: true, Doc: "JWT cache lifetime in seconds (0 disables)"},
	{Name: "jwt-role-claim-key", Type: TypeString, Default: ".role", Since: "5.0", Reloadable: true, Doc: "JSPath of the role claim"},
	{Name: "jwt-secret", Type: TypeString, Since: "0.3", Reloadable: true, Doc: "JWT secret, JWK or JWKS (@file reads it from a file)"},
	{Name: "jwt-secret-is-base64", Type: TypeBool, Default: "false", Since: "0.3", Reloadable: true, Doc: "decode jwt-secret from base64"},
	{Name: "log-level", Type: TypeEnum, Default: "error", Since: "9.0", Values: []string{"crit", "error", "warn", "info", "debug"}, Doc: "logging level; minimal logging increases throughput (reloadable since 16)"},
	{Name: "log-query", Type: TypeEnum, Default: "disabled", Since: "13.0", Reloadable: true, Values: []string{"disabled", "main-query"}, Doc: "log the SQL of each request at the current log-level"},
	{Name: "max-rows", Type: TypeInt, Since: "0.3", AliasOf: "db-max-rows", Doc: "old name of db-max-rows"},
	{Name: "openapi-mode", Type: TypeEnum, Default: "follow-privileges", Since: "8.0", Reloadable: true, Values: []string{"follow-privileges", "ignore-privileges", "disabled"}, Doc: "how GET / describes the API"},
	{Name: "openapi-security-active", Type: TypeBool, Default: "false", Since: "9.0", Reloadable: true, Doc: "include security in the OpenAPI output"},
	{Name: "openapi-server-proxy-uri", Type: TypeString, Since: "5.0", Reloadable: true, Doc: "URI advertised in the OpenAPI output"},
	{Name: "pre-request", Type: TypeString, Since: "0.4", AliasOf: "db-pre-request", Doc: "old name of db-pre-request"},
	{Name: "role-claim-key", Type: TypeString, Default: ".role", Since: "5.0", AliasOf: "jwt-role-claim-key", Doc: "old name of jwt-role-claim-key"},
	{Name: "root-spec", Type: TypeString, Since: "5.0", AliasOf: "db-root-spec", Doc: "old name of db-root-spec"},
	{Name: "secret-is-base64", Type: TypeBool, Default: "false", Since: "0.3", AliasOf: "jwt-secret-is-base64", Doc: "old name of jwt-secret-is-base64"},
	{Name: "server-cors-allowed-origins", Type: TypeList, Since: "12.0", Reloadable: true, Doc: "allowed CORS origins (comma-separated)"},
	{Name: "server-host", Type: TypeString, Default: "!4", Since: "0.3", Doc: "address to listen on"},
	{Name: "server-port", Type: TypeInt, Default: "3000", Since: "0.3", Doc: "TCP port to listen on"},
	{Name: "server-reuseport", Type: TypeBool, Default: "false", Since: "14.0", Doc: "SO_REUSEPORT on the listening socket"},
	{Name: "server-trace-header", Type: TypeString, Since: "10.0", Reloadable: true, Doc: "request header echoed in the response"},
	{Name: "server-timing-enabled", Type: TypeBool, Default: "false", Since: "12.0", Reloadable: true, Doc: "Server-Timing response header"},
	{Name: "server-unix-socket", Type: TypeString, Since: "7.0", Doc: "serve HTTP on this Unix socket"},
	{Name: "server-unix-socket-mode", Type: TypeOctal, Default: "660", Since: "7.0", Doc: "file mode of server-unix-socket (600..777)"},
	{Name: "admin-server-unix-socket", Type: TypeString, Since: "14.0", Doc: "serve the admin API on this Unix socket"},
	{Name: "admin-server-unix-socket-mode", Type: TypeOctal, Default: "660", Since: "14.0", Doc: "file mode of admin-server-unix-socket (600..777)"},
	{Name: "url-use-legacy-target-names", Type: TypeBool, Default: "true", Since: "14.0", Reloadable: true, Doc: "accept legacy target names in URLs"},
}

// In reports whether the key exists in PostgREST version v ("13.0.8"):
// Since <= v < Until.
func (k Key) In(v string) bool {
	return compareVersions(k.Since, v) <= 0 && (k.Until == "" || compareVersions(v, k.Until) < 0)
}

// compareVersions compares dotted version numbers ("12.2" < "13.0.8");
// missing parts count as 0, non-numeric parts as 0.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Lookup finds a key in the catalogue. Keys under app.settings. match the
// "app.settings.*" entry.
func Lookup(key string) (Key, bool) {
	if k, ok := catalogue[key]; ok {
		return k, true
	}
	if strings.HasPrefix(key, "app.settings.") && len(key) > len("app.settings.") {
		k := catalogue["app.settings.*"]
		k.Name = key
		return k, true
	}
	return Key{}, false
}

// Catalogue lists all known keys, sorted by name.
func Catalogue() []Key {
	out := append([]Key(nil), keys...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// EnvVar is the environment variable PostgREST reads for a key:
// PGRST_ + the key upper-cased with - turned into _ (app.settings.x is
// PGRST_APP_SETTINGS_x).
func EnvVar(key string) string {
	if rest, ok := strings.CutPrefix(key, "app.settings."); ok {
		return "PGRST_APP_SETTINGS_" + rest
	}
	return "PGRST_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}
