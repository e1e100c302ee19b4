package capability

import "strings"

// pgNeverName are PostgreSQL settings no variant may set that the name
// rules (pgNeverSuffix, pgNeverPrefix) do not already catch, with why.
// Each is refused whatever an agent's config lists: a variant is a
// performance experiment, and these belong to the host or to the
// server's protections.
var pgNeverName = map[string]string{
	// The host: addresses, modes, other servers, config files.
	"archive_mode":        "turns on WAL archiving, which runs archive_command or loads archive_library",
	"listen_addresses":    "names the addresses PostgreSQL listens on",
	"port":                "names the port PostgreSQL listens on (and its socket files)",
	"primary_conninfo":    "makes PostgreSQL connect to another server, with credentials",
	"data_directory_mode": "sets the mode of the data directory's files",
	"log_file_mode":       "sets the mode of the server's log files",
	"jit_provider":        "loads a shared library into the server",
	"event_source":        "names the event source the server logs to",
	"include":             "includes another config file",
	"include_if_exists":   "includes another config file",
	"allow_alter_system":  "turns ALTER SYSTEM off, which the lab's restore needs",
	"bonjour":             "advertises the server on the network (Bonjour)",
	"bonjour_name":        "names the server as Bonjour advertises it on the network",

	// Files the server writes as postgres.
	"jit_dump_bitcode":           "writes each JIT-compiled query's LLVM bitcode into the data directory as files, never removed",
	"jit_profiling_support":      "writes perf's JIT files into the postgres user's ~/.debug/jit, never removed",
	"logging_collector":          "starts a process that writes the server's log into files on the host",
	"log_destination":            "sends the server's log elsewhere: into files (csvlog, jsonlog), the host's syslog or event log",
	"allow_in_place_tablespaces": "lets CREATE TABLESPACE make directories inside the data directory (a developer's option)",

	// Protections every request runs behind.
	"search_path":                    "a server-wide search path decides whose functions and operators every session calls by an unqualified name: a schema listed before pg_catalog or the application's stands in for them",
	"session_replication_role":       "= replica makes every session, PostgREST's requests too, skip triggers, rules and foreign-key checks",
	"row_security":                   "changes how row-level security policies apply to every session (off is pg_dump's switch, not a tuning)",
	"lo_compat_privileges":           "turns off the privilege checks on large objects",
	"allow_system_table_mods":        "allows changes to the structure of the system catalogs",
	"zero_damaged_pages":             "zeroes damaged pages instead of reporting them, destroying their rows",
	"data_sync_retry":                "makes the server carry on after the kernel reported lost writes (a failed fsync) instead of recovering from the WAL",
	"event_triggers":                 "= off switches every event trigger off, and with them what they audit or guard",
	"createrole_self_grant":          "grants a CREATEROLE role membership in every role it creates",
	"standard_conforming_strings":    "= off makes backslashes escapes in ordinary string literals, which quoting done outside the server may not expect (SQL injection)",
	"backslash_quote":                "= on lets \\' end a string literal, the SQL injection of CVE-2006-2314",
	"password_encryption":            "decides how new passwords are stored (md5 is the weaker hash)",
	"scram_iterations":               "decides how costly stored SCRAM password hashes are to crack",
	"krb_caseins_users":              "changes how Kerberos and GSSAPI user names match at authentication",
	"gss_accept_delegation":          "accepts clients' delegated GSSAPI credentials, which the server may then use onward",
	"db_user_namespace":              "changes how user names match at authentication (per-database users)",
	"role":                           "sets the role every session acts as",
	"session_authorization":          "sets the user every session acts as",
	"superuser_reserved_connections": "keeps connection slots for superusers, which the lab's restore needs when PostgREST's pool fills max_connections",
}

// pgNeverSuffix are name endings of settings that run a program, load a
// library, run code or name a file, directory or search path, core or an
// extension's (plperl.on_init, pltcl.start_proc).
var pgNeverSuffix = []struct{ suffix, why string }{
	{"_command", "runs a shell command as the PostgreSQL server's user"},
	{"_command_supports_reload", "decides when the server runs a shell command"},
	{"_library", "loads a shared library into the server"},
	{"_libraries", "loads shared libraries into the server"},
	{"_path", "names a search path of directories (libraries, extensions)"},
	{"_file", "names a file on the host"},
	{"_filename", "names files on the host"},
	{"keyfile", "names a key file on the host"},
	{"directory", "names a directory on the host"},
	{"directories", "names directories on the host"},
	{"dir", "names a directory on the host"},
	{"_init", "runs code when a language or extension starts"},
	{"_proc", "runs a function when a language or extension starts"},
}

// pgNeverPrefix are name beginnings of groups that belong to the host or
// to a protection. An extension's prefix ("pgaudit.") matches the full
// name only.
var pgNeverPrefix = []struct{ prefix, why string }{
	{"archive_", "belongs to the server's WAL archive, which runs commands or loads libraries"},
	{"unix_socket_", "names or guards the server's socket files"},
	{"ssl", "belongs to the server's TLS setup (key and certificate files, a passphrase command)"},
	{"ignore_", "makes the server carry on past a check meant to catch corruption (checksums, invalid WAL pages, damaged system indexes)"},
	{"pgaudit.", "belongs to the audit log (pgaudit): turning it down hides what requests do"},
	{"sepgsql.", "belongs to SE-PostgreSQL's mandatory access control"},
}

// pgNever says why no variant may set a PostgreSQL setting ("" = the
// name rules let it through). Names are compared in lower case, as
// PostgreSQL compares them; an extension's setting (plperl.on_init) is
// judged by its own name too.
func pgNever(name string) string {
	name = strings.ToLower(name)
	for _, n := range []string{name, name[strings.LastIndexByte(name, '.')+1:]} {
		if why, ok := pgNeverName[n]; ok {
			return why
		}
		for _, s := range pgNeverSuffix {
			if strings.HasSuffix(n, s.suffix) {
				return s.why
			}
		}
		for _, p := range pgNeverPrefix {
			if strings.HasPrefix(n, p.prefix) {
				return p.why
			}
		}
	}
	return ""
}
