package agent

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Attacks on the capability table (issue 27's review, findings 3 and 4): PostgreSQL settings
// that run commands or name paths, and +RTS arguments that write files as
// root.

// autoConf is the cluster's postgresql.auto.conf and archive_command, as
// PostgreSQL reads them.
func (r *rig) autoConf(t *testing.T) (auto, archive string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, r.st.AdminURI)
	if err != nil {
		t.Fatalf("connect as the admin: %v", err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT coalesce(pg_read_file('postgresql.auto.conf', 0, 10485760, true), ''), current_setting('archive_command')`).Scan(&auto, &archive); err != nil {
		t.Fatalf("read postgresql.auto.conf: %v", err)
	}
	return auto, archive
}

// Finding 3 (issue 27): an AGENT.toml listing archive_mode and
// archive_command loaded without complaint, and archive_command = "id >
// /tmp/x; true" ran as postgres once a WAL segment filled. Now such an
// agent config does not load (file:line, the key and why), and an apply
// that sets one is 403 even when a Policy lists it directly: nothing
// reaches postgresql.auto.conf.
func attackPGCommandSettings(t *testing.T, r *rig) {
	for _, name := range []string{"archive_command", "archive_mode", "restore_command", "ssl_passphrase_command",
		"shared_preload_libraries", "session_preload_libraries", "dynamic_library_path", "jit_provider",
		"log_directory", "log_filename", "data_directory", "hba_file", "ssl_key_file", "krb_server_keyfile",
		"unix_socket_directories", "listen_addresses", "port", "ARCHIVE_COMMAND", "pg_stat_statements.some_command"} {
		src := fmt.Sprintf("listen = \"127.0.0.1:7171\"\n[stack]\ndir = %q\n[allow]\npostgresql_settings = [\"work_mem\", %q]\n", r.st.Dir, name)
		p := writeConfig(t, src)
		_, err := LoadConfig(p)
		if err == nil {
			t.Errorf("AGENT.toml with postgresql_settings = [%q] loaded", name)
			continue
		}
		if want := p + ":5: postgresql." + name + ": "; !strings.Contains(err.Error(), want) {
			t.Errorf("AGENT.toml with %q: %v, want an error starting %q and saying why", name, err, want)
		}
	}

	before, archiveBefore := r.autoConf(t)
	marker := filepath.Join(t.TempDir(), "ran")
	pol := DefaultPolicy()
	pol.PostgreSQL = append(pol.PostgreSQL, "archive_mode", "archive_command", "Archive_Command", "shared_preload_libraries")
	a := r.agent(t, pol, 0)
	a.open()
	t.Cleanup(func() {
		if a.leaseID != "" {
			a.close()
		}
	})
	for _, v := range []string{
		`{"name":"archive","postgresql":{"archive_command":` + jsonString("id > "+marker+"; true") + `}}`,
		`{"name":"archive-upper","postgresql":{"Archive_Command":` + jsonString("id > "+marker+"; true") + `}}`,
		`{"name":"archive-mode","postgresql":{"archive_mode":"on","work_mem":"8MB"}}`,
		`{"name":"preload","postgresql":{"shared_preload_libraries":"/tmp/evil.so"}}`,
	} {
		if status, body := a.apply(v); status != http.StatusForbidden {
			t.Errorf("%s: %d %.300s, want 403", v, status, body)
		}
	}
	if after, archive := r.autoConf(t); after != before || archive != archiveBefore {
		t.Errorf("postgresql.auto.conf changed (archive_command %q, was %q):\n%s", archive, archiveBefore, after)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Errorf("close: %d %s", status, body)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("archive_command ran: %s exists", marker)
	}
}

// targetCmdline is the target's command line.
func (r *rig) targetCmdline(t *testing.T) []string {
	t.Helper()
	p, err := r.st.Controller.Properties(context.Background(), r.st.Target.Name)
	if err != nil || p.MainPID == 0 {
		t.Fatalf("target: %+v %v", p, err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.MainPID))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// Finding 4 (issue 27): with allow.args = true (which the bundled rts sweep
// needs), {"args":["+RTS","-S/path","-RTS"]} made the target, running as
// root, replace a root 0600 file with GC statistics: arguments were only
// checked to be printable text. Now one rule (internal/ghcrts) checks
// every runtime option, from +RTS arguments and from GHCRTS: tuning only,
// bounded, nothing that writes a file.
func attackRTSArgsWriteFile(t *testing.T, r *rig) {
	victim := filepath.Join(t.TempDir(), "victim")
	const precious = "precious root-only content\n"
	if err := os.WriteFile(victim, []byte(precious), 0o600); err != nil {
		t.Fatal(err)
	}
	unchanged := func(when string) {
		t.Helper()
		if b, err := os.ReadFile(victim); err != nil || string(b) != precious {
			t.Fatalf("%s: the victim file is gone or changed: %v %.200q", when, err, b)
		}
	}
	pol := DefaultPolicy()
	pol.Args = true
	a := r.agent(t, pol, 0)
	a.open()
	t.Cleanup(func() {
		if a.leaseID != "" {
			a.close()
		}
	})
	for _, args := range [][]string{
		{"+RTS", "-S" + victim, "-RTS"},
		{"+RTS", "-N2", "-S" + victim}, // a trailing +RTS without -RTS
		{"+RTS", "-t" + victim, "-RTS"},
		{"+RTS", "-s" + victim, "-RTS"},
		{"-RTS", "+RTS", "-S" + victim},
	} {
		v := `{"name":"rts-file","args":` + jsonArray(args) + `}`
		if status, body := a.apply(v); status != http.StatusForbidden {
			t.Errorf("%s: %d %.300s, want 403", v, status, body)
		}
		// A target that took -S<file> would take anything: stop before
		// asking a Haskell target for 100000 capabilities below.
		unchanged("after " + v)
	}
	if status, body := a.apply(`{"name":"ghcrts-file","env":{"GHCRTS":` + jsonString("-S"+victim) + `}}`); status != http.StatusForbidden {
		t.Errorf("GHCRTS=-S<file>: %d %.300s, want 403", status, body)
	}
	if status, body := a.apply(`{"name":"procs","args":["+RTS","-N100000","-RTS"]}`); status != http.StatusForbidden {
		t.Errorf("+RTS -N100000: %d %.300s, want 403", status, body)
	}
	if status, body := a.apply(`{"name":"procs-env","env":{"GHCRTS":"-N100000"}}`); status != http.StatusForbidden {
		t.Errorf("GHCRTS=-N100000: %d %.300s, want 403", status, body)
	}
	unchanged("after the refused applies")

	// What the rts sweep needs still applies.
	if status, body := a.apply(`{"name":"tuned","args":["+RTS","-N2","-A64m","-RTS"]}`); status != http.StatusOK {
		t.Fatalf("+RTS -N2 -A64m -RTS: %d %.300s, want 200", status, body)
	}
	if cl := strings.Join(r.targetCmdline(t), " "); !strings.Contains(cl, "+RTS -N2 -A64m -RTS") {
		t.Errorf("the target's command line lacks the variant's options: %s", cl)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	if cl := strings.Join(r.targetCmdline(t), " "); strings.Contains(cl, "-A64m") {
		t.Errorf("after the restore the target still runs with the variant's options: %s", cl)
	}
	unchanged("after the restore")
}

// jsonArray quotes xs as a JSON array of strings.
func jsonArray(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = jsonString(x)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// r3-own-program-args (a way around the fix of finding 4, tried and
// refused): with allow.args = true, arguments outside +RTS
// ... -RTS reached PostgREST: --dump-config printed its config, secrets
// included, into the log and made it exit; a second file name is not the
// lab's config. A variant's args now hold runtime options only.
func attackProgramArgs(t *testing.T, r *rig) {
	pol := DefaultPolicy()
	pol.Args = true
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	for _, args := range []string{
		`["--dump-config"]`, `["--dump-schema"]`, `["--version"]`,
		`["+RTS","-N2","-RTS","/etc/shadow"]`, `["--","+RTS","-S/x"]`, `["+RTS","-N2","--RTS","--dump-config"]`,
	} {
		if status, body := a.apply(`{"name":"args","args":` + args + `}`); status != http.StatusForbidden {
			t.Errorf("args %s: %d %.300s, want 403", args, status, body)
		}
	}
}

// r3-own-env-spelling (a way around the env allow-list, tried and
// refused): the env allow-list is by exact name and GHCRTS is
// split as GHC splits it; other spellings of a name, and a tab before a
// file-writing option, must not pass.
func attackEnvSpelling(t *testing.T, r *rig) {
	a := r.agent(t, withEnv("PGRST_DB_POOL"), 0)
	a.open()
	defer a.close()
	for _, env := range []string{
		`{"pgrst_db_uri":"postgres://postgres@/chinook"}`,
		`{"Ghcrts":"-S/tmp/x"}`,
		`{"GHCRTS ":"-N2"}`,
		`{"PGRST_DB_POOL\u0000":"3"}`,
		`{"GHCRTS":"-N2\t-S/tmp/x"}`,
		`{"GHCRTS":"-N2\u00a0-S/tmp/x"}`,
	} {
		status, body := a.apply(`{"name":"env","env":` + env + `}`)
		if status != http.StatusForbidden && status != http.StatusUnprocessableEntity {
			t.Errorf("env %s: %d %.300s, want 403 or 422", env, status, body)
		}
	}
}

// pg-settings-that-lower-protections (issue 41, finding 3): an
// AGENT.toml listing session_replication_role loaded, and a variant's
// session_replication_role = replica made every PostgREST request skip
// triggers and foreign keys; so did other settings that lower a protection
// (lo_compat_privileges, a server-wide search_path, zero_damaged_pages...)
// or write files as postgres (jit_dump_bitcode). Now such an AGENT.toml
// does not load (file:line, the setting and why), and an apply that sets
// one is 403 even when a Policy lists it directly: the setting never
// reaches postgresql.auto.conf.
func attackPGSettingsThatLowerProtections(t *testing.T, r *rig) {
	for _, name := range []string{"session_replication_role", "lo_compat_privileges", "search_path", "zero_damaged_pages",
		"ignore_checksum_failure", "ignore_invalid_pages", "ignore_system_indexes", "allow_system_table_mods", "row_security",
		"jit_profiling_support", "jit_dump_bitcode", "logging_collector", "event_triggers", "standard_conforming_strings",
		"password_encryption", "Session_Replication_Role"} {
		src := fmt.Sprintf("listen = \"127.0.0.1:7171\"\n[stack]\ndir = %q\n[allow]\npostgresql_settings = [\"work_mem\", %q]\n", r.st.Dir, name)
		p := writeConfig(t, src)
		_, err := LoadConfig(p)
		if err == nil {
			t.Errorf("AGENT.toml with postgresql_settings = [%q] loaded", name)
			continue
		}
		if want := p + ":5: postgresql." + name + ": "; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "no variant may set it") {
			t.Errorf("AGENT.toml with %q: %v, want an error starting %q and saying why", name, err, want)
		}
	}

	before, _ := r.autoConf(t)
	pol := DefaultPolicy()
	pol.PostgreSQL = append(pol.PostgreSQL, "session_replication_role", "lo_compat_privileges", "search_path", "jit_dump_bitcode")
	a := r.agent(t, pol, 0)
	a.open()
	t.Cleanup(func() {
		if a.leaseID != "" {
			a.close()
		}
	})
	for _, v := range []string{
		`{"name":"replica","postgresql":{"session_replication_role":"replica"}}`,
		`{"name":"lo","postgresql":{"lo_compat_privileges":"on","work_mem":"8MB"}}`,
		`{"name":"path","postgresql":{"search_path":"lab_evil, pg_catalog"}}`,
		`{"name":"bitcode","postgresql":{"jit_dump_bitcode":"on"}}`,
	} {
		if status, body := a.apply(v); status != http.StatusForbidden || !strings.Contains(body, "no variant may set it") {
			t.Errorf("%s: %d %.300s, want 403 saying why", v, status, body)
		}
	}
	if after, _ := r.autoConf(t); after != before {
		t.Errorf("postgresql.auto.conf changed:\n%s\nwas\n%s", after, before)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, r.st.AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var role string
	if err := conn.QueryRow(ctx, "SHOW session_replication_role").Scan(&role); err != nil || role != "origin" {
		t.Errorf("session_replication_role in a fresh session: %q %v, want origin", role, err)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Errorf("close: %d %s", status, body)
	}
}
