package capability

import (
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/pgrst-lab/pgrst-lab/internal/ghcrts"
)

var pgIdentRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// DefaultPostgreSQL are the PostgreSQL settings an agent allows when its
// config says nothing: settings that tune performance, none that names a
// file, runs a command or loads a library.
var DefaultPostgreSQL = []string{"synchronous_commit", "shared_buffers", "work_mem", "effective_cache_size", "max_connections",
	"jit", "random_page_cost", "plan_cache_mode", "max_parallel_workers_per_gather", "wal_buffers", "commit_delay",
	"huge_pages", "effective_io_concurrency"}

// PostgreSQL checks a PostgreSQL setting's name and value for a variant.
// A setting that runs a program, loads a library, writes or names a file,
// a directory or an address (archive_command, shared_preload_libraries,
// log_directory, jit_dump_bitcode, listen_addresses...), or lowers a
// protection (session_replication_role, a server-wide search_path,
// zero_damaged_pages...) is refused by its name, whatever an agent's
// config lists: the server would run it as the postgres user, or every
// request would run with the protection off (pgnever.go says why, each).
// A value that stops the server from starting (shared_buffers = 200GB) is
// not caught here: the server side restores from the journal's bytes.
func PostgreSQL(name, val string) error {
	if !pgIdentRe.MatchString(name) {
		return &Error{Code: Invalid, Where: "postgresql." + name, Msg: "is not a PostgreSQL setting name (an identifier like shared_buffers or auto_explain.log_min_duration)"}
	}
	if why := pgNever(name); why != "" {
		return fail(Never, "postgresql."+name, "%s; no variant may set it (the lab refuses every setting that runs a program, loads a library, writes or names a file, a directory or an address, or lowers a protection)", why)
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
