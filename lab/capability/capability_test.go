package capability

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
)

func code(err error) (Code, bool) {
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Code, true
	}
	return 0, false
}

func TestPostgRESTKey(t *testing.T) {
	for _, c := range []struct {
		key, val string
		class    Class
		refused  Code
		ok       bool
	}{
		{"db-pool", "3", Tune, 0, true},
		{"db-uri", "tcp", Tune, 0, true},
		{"db-uri", "postgres://postgres@/x", Privileged, 0, true},
		{"db-anon-role", "postgres", Privileged, 0, true},
		{"jwt-secret", "x", Privileged, 0, true},
		{"server-unix-socket", "/etc/passwd", Fixed, Never, false},
		{"admin-server-port", "1", Fixed, Never, false},
		{"jwt-secret", "@/etc/shadow", Fixed, Never, false},
		{"db-schemas", "a\u2028b", Fixed, Invalid, false},
		{"db-schemas", "a\nb", Fixed, Invalid, false},
		{"db-schemas", "a\u202eb", Fixed, Invalid, false},
	} {
		class, err := PostgRESTKey(c.key, c.val)
		if c.ok != (err == nil) || class != c.class {
			t.Errorf("%s = %q: %v %v, want %v ok=%v", c.key, c.val, class, err, c.class, c.ok)
		}
		if !c.ok {
			if got, _ := code(err); got != c.refused {
				t.Errorf("%s = %q: code %v, want %v", c.key, c.val, got, c.refused)
			}
		}
	}
}

// TestEnvSameRulesAsKey: a PGRST_* variable gets the rules of its key.
func TestEnvSameRulesAsKey(t *testing.T) {
	for name, val := range map[string]string{
		"PGRST_DB_URI":             "@/etc/shadow",
		"PGRST_SERVER_UNIX_SOCKET": "/etc/passwd",
		"PGRST_SERVER_HOST":        "0.0.0.0",
		"PGRST_SERVER_PORT":        "1",
		"LD_PRELOAD":               "/tmp/x.so",
		"PATH":                     "/tmp",
		"GHCRTS":                   "-S/etc/passwd",
		"PGRST_DB_POOL":            "4\u2028X=1",
	} {
		if _, _, err := Env(name, val); err == nil {
			t.Errorf("%s=%q accepted", name, val)
		}
	}
	if key, class, err := Env("PGRST_DB_URI", "postgres://postgres@/x"); err != nil || key != "db-uri" || class != Privileged {
		t.Errorf("PGRST_DB_URI full URI: %s %v %v, want db-uri privileged", key, class, err)
	}
	if key, class, err := Env("PGRST_DB_ANON_ROLE", "postgres"); err != nil || key != "db-anon-role" || class != Privileged {
		t.Errorf("PGRST_DB_ANON_ROLE: %s %v %v", key, class, err)
	}
	if key, class, err := Env("PGRST_APP_SETTINGS_x", "1"); err != nil || key != "app.settings.x" || class != Privileged {
		t.Errorf("PGRST_APP_SETTINGS_x: %s %v %v", key, class, err)
	}
	if _, _, err := Env("GHCRTS", "-N2 -A64m -qg -I0"); err != nil {
		t.Errorf("GHCRTS tuning flags: %v", err)
	}
}

func TestDropIn(t *testing.T) {
	if err := DropIn("CPUAffinity", "0 1"); err != nil {
		t.Error(err)
	}
	for k, v := range map[string]string{"ExecStart": "/bin/sh", "Environment": "A=1", "CPUAffinity": "x", "Nice": "20"} {
		if err := DropIn(k, v); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
	if c, _ := code(DropIn("ExecStart", "/bin/sh")); c != Never {
		t.Errorf("ExecStart: code %v, want Never", c)
	}
}

// The drop-in settings holding CPUs accept exactly the lists [partition]
// does (internal/cpulist's rule): "3-1" and CPU 2048 are refused by both.
func TestDropInCPUListsFollowTheLabsRule(t *testing.T) {
	for _, v := range []string{"0", "0-1", "0 2", "0,2-3", "3-1", "0,2048", "x", "1-", ""} {
		_, perr := cpulist.Parse(v)
		for _, k := range []string{"CPUAffinity", "AllowedCPUs"} {
			if err := DropIn(k, v); (err == nil) != (perr == nil) {
				t.Errorf("%s=%q: %v, but as a CPU list: %v", k, v, err, perr)
			}
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:s3cret@h:5432/db":          "postgres://u:redacted@h:5432/db",
		"postgres://u@h/db?password=s3cret":      "postgres://u@h/db?password=redacted",
		"host=h user=u password=s3cret dbname=x": "host=h user=u password=redacted dbname=x",
		"tcp":                                    "tcp",
		"postgres://u@h/db":                      "postgres://u@h/db",
	} {
		if got := Redact("db-uri", in); got != want {
			t.Errorf("Redact(db-uri, %q) = %q, want %q", in, got, want)
		}
	}
	if Redact("jwt-secret", "abc") != "<redacted>" || Redact("db-pool", "3") != "3" {
		t.Error("Redact of jwt-secret/db-pool")
	}
	txt := `connect "postgres://authenticator:Pw0rd@127.0.0.1/x" failed; password=Pw0rd`
	if got := RedactText(txt); strings.Contains(got, "Pw0rd") {
		t.Errorf("RedactText left the password: %s", got)
	}
}

// Finding 3 (round 3): a setting that runs a program, loads a library or
// names a file, a directory or an address is refused by its name, in any
// case and as an extension's setting, whatever the value.
func TestPostgreSQLNeverSettings(t *testing.T) {
	for _, name := range []string{
		"archive_command", "archive_library", "archive_mode", "archive_timeout", "restore_command",
		"archive_cleanup_command", "recovery_end_command", "ssl_passphrase_command",
		"ssl_passphrase_command_supports_reload", "shared_preload_libraries", "session_preload_libraries",
		"local_preload_libraries", "output_plugin_libraries", "dynamic_library_path", "extension_destdir", "jit_provider",
		"log_directory", "log_filename", "log_file_mode", "data_directory", "data_directory_mode", "config_file",
		"hba_file", "ident_file", "external_pid_file", "include", "include_dir", "include_if_exists",
		"unix_socket_directories", "unix_socket_group", "unix_socket_permissions", "ssl", "ssl_cert_file",
		"ssl_key_file", "ssl_ca_file", "ssl_crl_file", "ssl_crl_dir", "ssl_dh_params_file", "krb_server_keyfile",
		"stats_temp_directory", "event_source", "promote_trigger_file", "listen_addresses", "port",
		"primary_conninfo", "allow_alter_system",
		// Case, as PostgreSQL compares names, and the patterns on names the
		// list does not know.
		"ARCHIVE_COMMAND", "Shared_Preload_Libraries", "some_future_command", "new_thing_libraries",
		"foo_directories", "x_file", "plperl.on_init", "plperl.on_plperlu_init", "pltcl.start_proc",
		"myext.log_directory", "myext.helper_library",
	} {
		for _, val := range []string{"", "on", "id > /tmp/x; true"} {
			err := PostgreSQL(name, val)
			if c, _ := code(err); err == nil || c != Never || !strings.Contains(err.Error(), "postgresql."+name+": ") {
				t.Errorf("PostgreSQL(%q, %q) = %v, want a Never refusal naming it", name, val, err)
			}
		}
	}
	// What tunes performance stays allowed: the defaults, and the rest of
	// what the bundled experiments sweep.
	for _, name := range append(slices.Clone(DefaultPostgreSQL), "maintenance_work_mem", "max_wal_size",
		"temp_file_limit", "max_files_per_process", "wal_init_zero", "log_min_duration_statement",
		"auto_explain.log_min_duration", "pg_stat_statements.max", "fsync", "full_page_writes", "log_line_prefix",
		"temp_tablespaces", "log_statement", "debug_parallel_query", "jit_above_cost") {
		if err := PostgreSQL(name, "1"); err != nil {
			t.Errorf("PostgreSQL(%q) = %v, want allowed", name, err)
		}
	}
	// Values: printable single-line text.
	for _, val := range []string{"a\nb", "a\x00b", "a\u2028b", "a\rb"} {
		if c, _ := code(PostgreSQL("work_mem", val)); c != Invalid {
			t.Errorf("work_mem = %q: code %v, want Invalid", val, c)
		}
	}
	if c, _ := code(PostgreSQL("a;b", "1")); c != Invalid {
		t.Errorf("name a;b: code %v, want Invalid", c)
	}
}

// Issue 41, finding 3: settings that lower a protection every request
// runs behind, or make the server write files as postgres, passed when an
// AGENT.toml listed them. Each is refused with its own why, in any case
// and as an extension's setting's own name.
func TestPostgreSQLSettingsThatLowerProtections(t *testing.T) {
	for _, c := range []struct{ name, why string }{
		{"session_replication_role", "skip triggers, rules and foreign-key checks"},
		{"Session_Replication_Role", "skip triggers"},
		{"lo_compat_privileges", "privilege checks on large objects"},
		{"search_path", "server-wide search path"},
		{"Search_Path", "server-wide search path"},
		{"zero_damaged_pages", "destroying their rows"},
		{"ignore_checksum_failure", "corruption"},
		{"ignore_invalid_pages", "corruption"},
		{"ignore_system_indexes", "corruption"},
		{"allow_system_table_mods", "system catalogs"},
		{"jit_profiling_support", "writes perf's JIT files"},
		{"jit_dump_bitcode", "writes each JIT-compiled query's LLVM bitcode"},
		{"logging_collector", "writes the server's log into files"},
		{"log_destination", "into files"},
		{"allow_in_place_tablespaces", "make directories inside the data directory"},
		{"row_security", "row-level security"},
		{"data_sync_retry", "lost writes"},
		{"event_triggers", "every event trigger off"},
		{"createrole_self_grant", "membership in every role it creates"},
		{"standard_conforming_strings", "SQL injection"},
		{"backslash_quote", "SQL injection"},
		{"password_encryption", "how new passwords are stored"},
		{"scram_iterations", "SCRAM password hashes"},
		{"krb_caseins_users", "authentication"},
		{"gss_accept_delegation", "delegated GSSAPI credentials"},
		{"db_user_namespace", "authentication"},
		{"role", "the role every session acts as"},
		{"session_authorization", "the user every session acts as"},
		{"superuser_reserved_connections", "the lab's restore needs"},
		{"bonjour", "advertises the server"},
		{"bonjour_name", "Bonjour"},
		{"pgaudit.log", "audit log"},
		{"sepgsql.permissive", "mandatory access control"},
	} {
		for _, val := range []string{"", "replica", "off", "on", "public"} {
			err := PostgreSQL(c.name, val)
			if cd, _ := code(err); err == nil || cd != Never || !strings.HasPrefix(err.Error(), "postgresql."+c.name+": ") || !strings.Contains(err.Error(), c.why) {
				t.Errorf("PostgreSQL(%q, %q) = %v, want a Never refusal naming it and saying %q", c.name, val, err, c.why)
			}
		}
	}
}

// Finding 4 (round 3): +RTS arguments get the rule GHCRTS gets, from
// internal/ghcrts: the same options are refused in both places.
func TestArgsAndGHCRTSOneRule(t *testing.T) {
	for _, c := range []struct {
		opts string
		ok   bool
	}{
		{"-N2 -A64m", true}, {"-N1", true}, {"-N2 -qn1", true}, {"-N -I0 -qg", true},
		{"-S/etc/shadow", false}, {"-s/x", false}, {"-t/x", false}, {"-hT", false}, {"-l", false},
		{"-N100000", false}, {"-A64g", false}, {"--info", false}, {"-N2 -S/x", false},
	} {
		opts := strings.Fields(c.opts)
		argErr := Args(append(append([]string{"+RTS"}, opts...), "-RTS"))
		_, _, envErr := Env("GHCRTS", c.opts)
		if (argErr == nil) != c.ok || (envErr == nil) != c.ok {
			t.Errorf("%q: args %v, GHCRTS %v, want ok=%v in both", c.opts, argErr, envErr, c.ok)
		}
		if !c.ok {
			if a, _ := code(argErr); a != Never {
				t.Errorf("%q as args: code %v, want Never", c.opts, a)
			}
			if e, _ := code(envErr); e != Never {
				t.Errorf("%q as GHCRTS: code %v, want Never", c.opts, e)
			}
		}
	}
	for _, args := range [][]string{
		{"+RTS", "-S/x"}, {"+RTS", "-N2"}, {"--RTS"}, {"--"}, {"-RTS", "+RTS", "-S/x"}, {"+RTS", ""}, {"a\nb"},
	} {
		if err := Args(args); err == nil {
			t.Errorf("Args(%q) accepted", args)
		}
	}
	if err := Args([]string{"+RTS", "-N2", "-RTS", "+RTS", "-S/x", "-RTS"}); err == nil || !strings.HasPrefix(err.Error(), "args[4]: ") {
		t.Errorf("the refused argument's index: %v, want args[4]", err)
	}
	if err := Args(nil); err != nil {
		t.Errorf("no args: %v", err)
	}
	// Program arguments: PostgREST's flags print the config (secrets
	// included) or exit; a second file name is not the lab's config.
	for _, args := range [][]string{
		{"--dump-config"}, {"--dump-schema"}, {"--version"}, {"/etc/other.conf"}, {"+RTS", "-N2", "-RTS", "--example"},
	} {
		err := Args(args)
		if c, _ := code(err); err == nil || c != Never || !strings.Contains(err.Error(), "program argument") {
			t.Errorf("Args(%q): %v, want a Never refusal of a program argument", args, err)
		}
	}
}
