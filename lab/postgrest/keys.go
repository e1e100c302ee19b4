package postgrest

// keys is the table: PostgREST's config reference
// (docs/references/configuration.rst and Config.hs), true per version for
// v13, v14 and v16, with the lab's class of every key. Versions: Since and
// Removed bound a key; Eras hold what changed in between (type, default,
// values, reloadability), each with its Source (the tag and the
// CHANGELOG entry or PR). Checked: the keys and defaults of each real
// binary the tests have, with `postgrest --dump-config` (13.0.8, 14.0,
// 14.17: configs/real_test.go), and of v13.0.8, v14.17 and v16.2 as
// PostgREST's own test expects them (test/io/configs/expected/
// defaults.config at the tag, kept in configs/testdata/defaults: v16
// cannot be built on these machines, so its rows are read from source).
//
// Shown, per key (TestShownOverTheTable holds every decision): Visible for
// every int, bool, enum and octal key, where PostgREST takes nothing but a
// number, a boolean or a listed word; and for the string and list keys
// whose value names something, not a credential: a role, schemas,
// functions (db-pre-config, db-pre-request, db-root-spec: a name; what the
// function reads stays in the database), a channel, setting names, a
// header, a JSPath, an address or a socket path, or whose value PostgREST
// publishes itself (jwt-aud is in every token, openapi-server-proxy-uri in
// the OpenAPI output, server-cors-allowed-origins in the CORS headers).
// Hidden: jwt-secret (it signs tokens for any role) and app.settings.*
// (free text for SQL; PostgREST's tutorial keeps the JWT secret there),
// and every key the table lacks. PasswordsHidden: db-uri, whose role and
// server a report needs, never its password.
var keys = []Key{
	{Name: "admin-server-host", Type: TypeString, DefaultOf: "server-host", Since: "12.2", Class: Fixed, Why: "names the address of the admin server", Shown: Visible, Doc: "host of the admin server (defaults to server-host)"},
	{Name: "admin-server-port", Type: TypeInt, Since: "10.0", Class: Fixed, Why: "names the port of the admin server", Shown: Visible, Doc: "port of the admin server (/live, /ready; /metrics since 12.2)"},
	{Name: "app.settings.*", Type: TypeString, Since: "5.0", Reloadable: true, Class: Privileged, Why: "SQL reads it as current_setting('app.settings.x') and may trust it (PostgREST's tutorial keeps the JWT secret in app.settings.jwt_secret)", Shown: Hidden, Doc: "arbitrary settings available to SQL as current_setting('app.settings.x')"},
	{Name: "client-error-verbosity", Type: TypeEnum, Default: "verbose", Since: "16.0", Reloadable: true, Values: []string{"minimal", "verbose"}, Class: Tune, Shown: Visible, Doc: "detail in error responses", Source: "v16.0 CHANGELOG (#4088); absent from v14.17's Config.hs"},
	{Name: "db-aggregates-enabled", Type: TypeBool, Default: "false", Since: "12.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "allow aggregate functions in select"},
	{Name: "db-anon-role", Type: TypeString, Since: "0.3", Reloadable: true, Class: Privileged, Why: "chooses the database role of anonymous requests", Shown: Visible, Doc: "role for unauthenticated requests"},
	{Name: "db-channel", Type: TypeString, Default: "pgrst", Since: "8.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "LISTEN channel for reload notifications"},
	{Name: "db-channel-enabled", Type: TypeBool, Default: "true", Since: "8.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "LISTEN for NOTIFY reloads"},
	{Name: "db-config", Type: TypeBool, Default: "true", Since: "9.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "read in-database configuration (ALTER ROLE ... SET pgrst.x)"},
	{Name: "db-extra-search-path", Type: TypeList, Default: "public", Since: "7.0", Reloadable: true, Class: Privileged, Why: "changes name resolution of every request", Shown: Visible, Doc: "schemas added to search_path of every request"},
	{Name: "db-hoisted-tx-settings", Type: TypeList, Default: "statement_timeout,plan_filter.statement_cost_limit,default_transaction_isolation", Since: "12.2", Reloadable: true, Class: Tune, Shown: Visible, Doc: "function settings applied to the transaction"},
	{Name: "db-max-rows", Type: TypeInt, Since: "0.3", Reloadable: true, Class: Tune, Shown: Visible, Doc: "hard limit on rows returned by a read"},
	{Name: "db-plan-enabled", Type: TypeBool, Default: "false", Since: "10.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "allow Accept: application/vnd.pgrst.plan"},
	{Name: "db-pool", Type: TypeInt, Default: "10", Since: "0.3", Class: Tune, Shown: Visible, Doc: "size of the connection pool"},
	{Name: "db-pool-acquisition-timeout", Type: TypeInt, Default: "10", Since: "10.1", Class: Tune, Shown: Visible, Doc: "seconds to wait for a pool connection before 504 (PGRST003)"},
	{Name: "db-pool-automatic-recovery", Type: TypeBool, Default: "true", Since: "12.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "reconnect when the database goes away"},
	{Name: "db-pool-max-idletime", Type: TypeInt, Default: "30", Since: "10.2", Class: Tune, Shown: Visible, Doc: "seconds before an idle connection is closed"},
	{Name: "db-pool-max-lifetime", Type: TypeInt, Default: "1800", Since: "10.2", Class: Tune, Shown: Visible, Doc: "seconds before a connection is recycled"},
	{Name: "db-pool-timeout", Type: TypeInt, Default: "30", Since: "0.3", AliasOf: "db-pool-max-idletime", Class: Tune, Shown: Visible, Doc: "old name of db-pool-max-idletime"},
	{Name: "db-pre-config", Type: TypeString, Since: "11.0", Reloadable: true, Class: Privileged, Why: "runs a function when the config loads", Shown: Visible, Doc: "function run before loading in-database config"},
	{Name: "db-pre-request", Type: TypeString, Since: "7.0", Reloadable: true, Class: Privileged, Why: "runs a function before every request", Shown: Visible, Doc: "function called before every request"},
	{Name: "db-prepared-statements", Type: TypeBool, Default: "true", Since: "8.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "use prepared statements (about 30% more throughput on simple GETs)"},
	{Name: "db-root-spec", Type: TypeString, Since: "9.0", Reloadable: true, Class: Privileged, Why: "runs a function for the root endpoint", Shown: Visible, Doc: "function answering GET /"},
	{Name: "db-schema", Type: TypeList, Default: "public", Since: "0.3", AliasOf: "db-schemas", Class: Privileged, Why: "chooses the schemas exposed over HTTP", Shown: Visible, Doc: "old name of db-schemas"},
	{Name: "db-schemas", Type: TypeList, Default: "public", Since: "7.0", Reloadable: true, Class: Privileged, Why: "chooses the schemas exposed over HTTP", Shown: Visible, Doc: "schemas exposed over the API"},
	{Name: "db-tx-end", Type: TypeEnum, Default: "commit", Since: "6.0", Reloadable: true, Values: []string{"commit", "commit-allow-override", "rollback", "rollback-allow-override"}, Class: Tune, Shown: Visible, Doc: "how transactions end"},
	{Name: "db-uri", Type: TypeString, Default: "postgresql://", Since: "0.3", Class: Privileged, Why: "a full connection URI chooses the database role and server (\"tcp\" and \"unix\" keep the target's own)", Shown: PasswordsHidden, Doc: "connection string (URI or key=value; @file reads it from a file)"},
	{Name: "jwt-aud", Type: TypeString, Since: "5.0", Reloadable: true, Class: Privileged, Why: "changes which tokens are accepted", Shown: Visible, Doc: "expected JWT audience"},
	{Name: "jwt-cache-max-entries", Type: TypeInt, Default: "1000", Since: "14.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "JWT validation cache size in entries (the cache is on by default; 0 turns it off)", Source: "v14.0 CHANGELOG (#4084, bounded SIEVE cache); --dump-config of 14.0 and 14.17"},
	{Name: "jwt-cache-max-lifetime", Type: TypeInt, Default: "0", Since: "12.0", Removed: "14.0", Replacement: "jwt-cache-max-entries", Reloadable: true, Class: Tune, Shown: Visible, Doc: "JWT cache lifetime in seconds (0, the default, disables the cache)", Source: "v14.0 CHANGELOG: replaced by jwt-cache-max-entries (#4084); --dump-config of 13.0.8"},
	{Name: "jwt-role-claim-key", Type: TypeString, Default: ".role", Since: "5.0", Reloadable: true, Class: Privileged, Why: "chooses which claim names the database role", Shown: Visible, Doc: "JSPath of the role claim", Source: "--dump-config of 13.0.8 and 14.17",
		Eras: []Era{{Since: "16.0", Type: TypeString, Default: "$.role", Reloadable: true, Doc: "RFC 9535 JSON Path of the role claim (must start with $)", Source: "v16.0 CHANGELOG (#4984); v16.2 test/io/configs/expected/defaults.config"}}},
	{Name: "jwt-secret", Type: TypeString, Since: "0.3", Reloadable: true, Class: Privileged, Why: "whoever knows it can sign tokens for any role", Shown: Hidden, Doc: "JWT secret, JWK or JWKS (@file reads it from a file)"},
	{Name: "jwt-secret-is-base64", Type: TypeBool, Default: "false", Since: "0.3", Reloadable: true, Class: Privileged, Why: "changes how the JWT secret is read", Shown: Visible, Doc: "decode jwt-secret from base64"},
	{Name: "log-level", Type: TypeEnum, Default: "error", Since: "9.0", Values: []string{"crit", "error", "warn", "info", "debug"}, Class: Tune, Shown: Visible, Doc: "logging level; minimal logging increases throughput", Source: "--dump-config of 13.0.8 and 14.17",
		Eras: []Era{{Since: "16.0", Type: TypeEnum, Default: "error", Values: []string{"crit", "error", "warn", "info", "debug"}, Reloadable: true, Source: "v16.0 CHANGELOG: reloadable (#5113)"}}},
	{Name: "log-query", Type: TypeEnum, Default: "disabled", Since: "13.0", Reloadable: true, Values: []string{"disabled", "main-query"}, Class: Tune, Shown: Visible, Doc: "log the SQL of each request at the current log-level", Source: "--dump-config of 13.0.8",
		Eras: []Era{{Since: "14.0", Type: TypeBool, Default: "false", Reloadable: true, Doc: "log the SQL of each request (and the pre-request, transaction settings, OpenAPI and explain queries) at the current log-level", Source: "v14.0 CHANGELOG: a boolean (#3934); --dump-config of 14.0 and 14.17"}}},
	{Name: "max-rows", Type: TypeInt, Since: "0.3", AliasOf: "db-max-rows", Class: Tune, Shown: Visible, Doc: "old name of db-max-rows"},
	{Name: "openapi-mode", Type: TypeEnum, Default: "follow-privileges", Since: "8.0", Reloadable: true, Values: []string{"follow-privileges", "ignore-privileges", "disabled"}, Class: Tune, Shown: Visible, Doc: "how GET / describes the API"},
	{Name: "openapi-security-active", Type: TypeBool, Default: "false", Since: "9.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "include security in the OpenAPI output"},
	{Name: "openapi-server-proxy-uri", Type: TypeString, Since: "5.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "URI advertised in the OpenAPI output"},
	{Name: "pre-request", Type: TypeString, Since: "0.4", AliasOf: "db-pre-request", Class: Privileged, Why: "runs a function before every request", Shown: Visible, Doc: "old name of db-pre-request"},
	{Name: "role-claim-key", Type: TypeString, Default: ".role", Since: "5.0", AliasOf: "jwt-role-claim-key", Class: Privileged, Why: "chooses which claim names the database role", Shown: Visible, Doc: "old name of jwt-role-claim-key"},
	{Name: "root-spec", Type: TypeString, Since: "5.0", AliasOf: "db-root-spec", Class: Privileged, Why: "runs a function for the root endpoint", Shown: Visible, Doc: "old name of db-root-spec"},
	{Name: "secret-is-base64", Type: TypeBool, Default: "false", Since: "0.3", AliasOf: "jwt-secret-is-base64", Class: Privileged, Why: "changes how the JWT secret is read", Shown: Visible, Doc: "old name of jwt-secret-is-base64"},
	{Name: "server-cors-allowed-origins", Type: TypeList, Since: "12.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "allowed CORS origins (comma-separated)"},
	{Name: "server-host", Type: TypeString, Default: "!4", Since: "0.3", Class: Fixed, Why: "names the address the target listens on", Shown: Visible, Doc: "address to listen on"},
	{Name: "server-port", Type: TypeInt, Default: "3000", Since: "0.3", Class: Fixed, Why: "names the port the target listens on", Shown: Visible, Doc: "TCP port to listen on"},
	{Name: "server-reuseport", Type: TypeBool, Default: "false", Since: "16.0", Class: Tune, Shown: Visible, Doc: "SO_REUSEPORT on the listening socket", Source: "v16.0 CHANGELOG (#4703, #4694); absent from v14.17's Config.hs"},
	{Name: "server-trace-header", Type: TypeString, Since: "10.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "request header echoed in the response"},
	{Name: "server-timing-enabled", Type: TypeBool, Default: "false", Since: "12.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "Server-Timing response header"},
	{Name: "server-unix-socket", Type: TypeString, Since: "7.0", Class: Fixed, Why: "names a socket path on the agent's host", Shown: Visible, Doc: "serve HTTP on this Unix socket"},
	{Name: "server-unix-socket-mode", Type: TypeOctal, Default: "660", Since: "7.0", Class: Fixed, Why: "sets the mode of a socket path on the agent's host", Shown: Visible, Doc: "file mode of server-unix-socket (600..777)"},
	{Name: "admin-server-unix-socket", Type: TypeString, Since: "16.0", Class: Fixed, Why: "names a socket path on the agent's host", Shown: Visible, Doc: "serve the admin API on this Unix socket", Source: "v16.0 CHANGELOG (#5003)"},
	{Name: "admin-server-unix-socket-mode", Type: TypeOctal, Default: "660", Since: "16.0", Class: Fixed, Why: "sets the mode of a socket path on the agent's host", Shown: Visible, Doc: "file mode of admin-server-unix-socket (600..777)", Source: "v16.0 CHANGELOG (#5003)"},
	{Name: "url-use-legacy-target-names", Type: TypeBool, Default: "true", Since: "16.0", Reloadable: true, Class: Tune, Shown: Visible, Doc: "accept legacy target names in URLs", Source: "v16.0 CHANGELOG; v16.2 test/io/configs/expected/defaults.config"},
}
