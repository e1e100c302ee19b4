package capability

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/ghcrts"
)

var pgIdentRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// DefaultPostgreSQL are the PostgreSQL settings an agent allows when its
// config says nothing: settings that tune performance, none that names a
// file, runs a command or loads a library.
var DefaultPostgreSQL = []string{"synchronous_commit", "shared_buffers", "work_mem", "effective_cache_size", "max_connections",
	"jit", "random_page_cost", "plan_cache_mode", "max_parallel_workers_per_gather", "wal_buffers", "commit_delay",
	"huge_pages", "effective_io_concurrency"}

// pgNeverName are PostgreSQL settings no variant may set that the name
// rules (pgNeverSuffix, pgNeverPrefix) do not already catch, with why.
var pgNeverName = map[string]string{
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

// pgNeverPrefix are name beginnings of groups that belong to the host.
var pgNeverPrefix = []struct{ prefix, why string }{
	{"archive_", "belongs to the server's WAL archive, which runs commands or loads libraries"},
	{"unix_socket_", "names or guards the server's socket files"},
	{"ssl", "belongs to the server's TLS setup (key and certificate files, a passphrase command)"},
}

// pgNever says why no variant may set a PostgreSQL setting ("" = the
// name rules let it through). Names are compared in lower case, as
// PostgreSQL compares them; an extension's setting (plperl.on_init) is
// judged by its own name too.
func pgNever(name string) string {
	name = strings.ToLower(name)
	if name == "search_path" {
		return "" // schemas, not files: a list a variant may tune where the config allows it
	}
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

// PostgreSQL checks a PostgreSQL setting's name and value for a variant.
// A setting that runs a program, loads a library or names a file, a
// directory or an address (archive_command, shared_preload_libraries,
// log_directory, listen_addresses...) is refused by its name, whatever an
// agent's config lists: the server would run it as the postgres user.
// A value that stops the server from starting (shared_buffers = 200GB) is
// not caught here: the server side restores from the journal's bytes.
func PostgreSQL(name, val string) error {
	if !pgIdentRe.MatchString(name) {
		return &Error{Code: Invalid, Where: "postgresql." + name, Msg: "is not a PostgreSQL setting name (an identifier like shared_buffers or auto_explain.log_min_duration)"}
	}
	if why := pgNever(name); why != "" {
		return fail(Never, "postgresql."+name, "%s; no variant may set it (the lab refuses every setting that runs a program, loads a library, or names a file, a directory or an address)", why)
	}
	return Text("postgresql."+name, val)
}

// Binary checks a binary a variant runs instead of the target's: an
// absolute, clean path. Which binaries are allowed is the agent's config.
func Binary(path string) error {
	if err := Text("binary", path); err != nil {
		return err
	}
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return fail(Invalid, "binary", "%q: give an absolute, clean path", path)
	}
	return nil
}

// Arg checks the form of one extra argument of the target: non-empty
// printable text. Args checks the whole list.
func Arg(i int, a string) error {
	if a == "" {
		return fail(Invalid, fmt.Sprintf("args[%d]", i), "empty argument")
	}
	return Text(fmt.Sprintf("args[%d]", i), a)
}

// Args checks a variant's extra arguments: each is an Arg, and the GHC
// runtime options among them (+RTS ... -RTS) pass the rule GHCRTS gets
// too (internal/ghcrts): runtime tuning, bounded, no option that writes a
// file. The target runs as its own unprivileged user, but -S<file> would
// still replace any file of that user's (or the lab's, where a target ran
// as the lab's user). The
// lab's own +RTS -S<file> (profiling) is added on the server side, after
// this check.
//
// Outside +RTS ... -RTS a variant gives no argument: PostgREST takes none
// but its config file, which the lab passes itself, and its flags only
// print (--dump-config prints the config with its secrets into the log,
// then the target exits) or exit (--version).
func Args(args []string) error {
	in := false
	for i, a := range args {
		if err := Arg(i, a); err != nil {
			return err
		}
		switch {
		case a == "+RTS":
			in = true
		case a == "-RTS":
			in = false
		case !in && a != "--RTS" && a != "--":
			return fail(Never, fmt.Sprintf("args[%d]", i), "%q is a program argument: PostgREST takes none but its config file, which the lab gives; a variant's args hold only GHC runtime options between +RTS and -RTS", a)
		}
	}
	if i, err := ghcrts.CheckArgs(args); err != nil {
		return fail(Never, fmt.Sprintf("args[%d]", i), "%v", err)
	}
	return nil
}
