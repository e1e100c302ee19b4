package reconcile

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// localOnStack brings up a real stack (PostgreSQL and postgrest-mini as
// systemd user units) and returns the server side over it.
func localOnStack(t *testing.T) (*Server, stack.Status) {
	t.Helper()
	return localOn(t, stack.Options{Supervisor: systemd.ModeSystemd})
}

// localOn brings up a real stack with o (Dir is set here), loads the
// generated Chinook, waits until the target serves it and returns the
// server side over the stack.
func localOn(t *testing.T, o stack.Options) (*Server, stack.Status) {
	t.Helper()
	if _, err := labtest.BinDir(); err != nil {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	if o.Supervisor == systemd.ModeSystemd {
		labtest.RequireSystemd(t)
	}
	o.Dir = labtest.StateDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := stack.Up(ctx, o)
	if err != nil {
		t.Fatalf("stack up: %v", err)
	}
	t.Cleanup(func() { _ = s.Down(context.Background(), true); s.Close() })
	st, err := s.Status(ctx)
	if err != nil || st.Target == nil {
		t.Fatalf("status: %v (target %v)", err, st.Target)
	}
	if _, err := fixture.Chinook(ctx, s.AdminURI("postgres"), stack.Database, fixture.DefaultSeed); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WaitServes(ctx, "artist", 0); err != nil {
		t.Fatal(err)
	}
	spec := s.TargetSpec()
	l, err := New(ctx, Config{Ctl: st.Controller, StateDir: st.Dir, Config: st.Config, TargetUnit: st.Target.Name,
		TargetSpec: &spec, TargetUser: st.TargetUser, PGUnit: st.Postgres.Name, PG: configs.PGAddr{Host: st.PGHost, Port: st.PGPort, SocketDir: st.PGSocketDir},
		AdminURI: st.AdminURI, URL: st.URL, AdminURL: st.AdminURL, Binary: st.Binary, Reference: st.Reference, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l, st
}

func pgSetting(t *testing.T, uri, name string) string {
	t.Helper()
	return labtest.QueryValue[string](t, uri, "SELECT current_setting($1)", name)
}

func mainPID(t *testing.T, l *Server) int {
	t.Helper()
	p, err := l.cfg.Ctl.Properties(context.Background(), l.cfg.TargetUnit)
	if err != nil || p.MainPID == 0 {
		t.Fatalf("target main PID: %v %+v", err, p)
	}
	return p.MainPID
}

func get(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
}

// TestLocalApplyWatchRestore drives the real server side through a variant
// that touches everything (PostgREST keys, PostgreSQL settings, environment,
// drop-in, binary) and back, and checks each effect where it really lands.
func TestLocalApplyWatchRestore(t *testing.T) {
	l, st := localOnStack(t)
	ctx := context.Background()
	original, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	syncCommit := pgSetting(t, st.AdminURI, "synchronous_commit")

	host, target, err := l.Describe(ctx)
	if err != nil || host.CPUs == 0 || host.PostgreSQL == "" || !target.Reference || target.Supervisor != "systemd-user" {
		t.Fatalf("describe: %v %+v %+v", err, host, target)
	}

	copyBin := filepath.Join(t.TempDir(), "postgrest-branch")
	b, err := os.ReadFile(st.Binary)
	if err != nil || os.WriteFile(copyBin, b, 0o755) != nil {
		t.Fatalf("copy binary: %v", err)
	}
	v := lab.Variant{Name: "all", PostgREST: map[string]string{"db-uri": "unix", "db-pool": "3"},
		PostgreSQL: map[string]string{"synchronous_commit": "off"}, Env: map[string]string{"PGRST_APP_SETTINGS_LAB_TEST": "x y"},
		DropIn: map[string]string{"LimitNOFILE": "4096"}, Binary: copyBin}
	applied, err := l.Apply(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	if applied.ReadyAfter <= 0 || len(applied.Changes) != 6 {
		t.Fatalf("applied %+v", applied)
	}
	conf, _ := os.ReadFile(st.Config)
	if !bytes.Contains(conf, []byte("host="+st.PGSocketDir)) || !bytes.Contains(conf, []byte("db-pool = 3")) {
		t.Fatalf("config after apply:\n%s", conf)
	}
	if got := pgSetting(t, st.AdminURI, "synchronous_commit"); got != "off" {
		t.Fatalf("synchronous_commit = %s after apply", got)
	}
	pid := mainPID(t, l)
	env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	limits, _ := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if !bytes.Contains(env, []byte("PGRST_APP_SETTINGS_LAB_TEST=x y\x00")) || !runsBinary(st, exe, copyBin) || !strings.Contains(string(limits), "4096") {
		t.Fatalf("unit not as the variant asked: exe %s, env has var %v, limits:\n%s", exe, bytes.Contains(env, []byte("PGRST_APP_SETTINGS_LAB_TEST")), limits)
	}

	w, err := l.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	for i := 0; i < n; i++ {
		get(t, st.URL+"/artist?artist_id=eq.1")
	}
	tel, err := w.Stop(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if tel.Server.CPUSeconds <= 0 || tel.Database.CPUSeconds <= 0 || len(tel.Server.Samples) == 0 || tel.Server.PeakRSS == 0 {
		t.Fatalf("telemetry: %+v %+v", tel.Server, tel.Database)
	}
	if tel.DB.StatementsPerRequest < 0.9 {
		t.Errorf("statements per request %.2f, want about 1 or more", tel.DB.StatementsPerRequest)
	}
	if p := tel.DB.Pool; p == nil || p.Size != 3 || p.Scrapes < 2 || p.Timeouts != 0 {
		t.Errorf("pool metrics from /metrics: %+v, want size 3 (the variant's db-pool), 2+ scrapes, no timeouts", p)
	}
	if len(tel.Events) != 0 {
		t.Errorf("events during a quiet window: %+v", tel.Events)
	}

	if _, err := l.Apply(ctx, lab.Variant{Name: "baseline"}); err != nil {
		t.Fatal(err)
	}
	if got := pgSetting(t, st.AdminURI, "synchronous_commit"); got != syncCommit {
		t.Fatalf("synchronous_commit = %s after the baseline, want %s", got, syncCommit)
	}
	pid = mainPID(t, l)
	env, _ = os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if bytes.Contains(env, []byte("PGRST_APP_SETTINGS_LAB_TEST")) || !runsBinary(st, exe, st.Binary) {
		t.Fatalf("baseline still has the variant's unit: exe %s", exe)
	}

	if _, err := l.Apply(ctx, v); err != nil {
		t.Fatal(err)
	}
	if err := l.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	now, _ := os.ReadFile(st.Config)
	if !bytes.Equal(now, original) {
		t.Fatalf("config not restored byte for byte:\n%s", now)
	}
	if got := pgSetting(t, st.AdminURI, "synchronous_commit"); got != syncCommit {
		t.Fatalf("synchronous_commit = %s after restore", got)
	}
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", mainPID(t, l))); !runsBinary(st, exe, st.Binary) {
		t.Fatalf("binary after restore: %s", exe)
	}
	if p := l.journal.Pending(); len(p) != 0 {
		t.Fatalf("journal not empty after restore: %v", p)
	}
	get(t, st.URL+"/artist?artist_id=eq.1")

	// A POST trial, then the cleanup the runner calls after the window.
	// At most 200 requests or 5 s: a busy machine answers none in 0.5 s.
	ld := &trial.Loader{Target: loadgen.Target{URL: st.URL}, MaxRequests: 200}
	spec := lab.LoadSpec{Scenario: "POSTSingle", Seed: 1, Load: lab.Load{Model: lab.ModelClosed, Connections: 2, Duration: 5 * time.Second}}
	out, err := ld.Load(ctx, spec)
	if err != nil || out.Stats.Requests == 0 || out.Stats.Errors != 0 {
		t.Fatalf("POSTSingle: %v %+v", err, out.Stats)
	}
	if n := loadTesters(t, st.AdminURI); n != out.Stats.Requests {
		t.Logf("%d rows for %d measured requests (requests cut off at the end are not counted)", n, out.Stats.Requests)
	}
	if err := ld.Cleanup(ctx, spec); err != nil {
		t.Fatal(err)
	}
	if n := loadTesters(t, st.AdminURI); n != 0 {
		t.Fatalf("%d Load Tester rows left after the cleanup", n)
	}
}

func loadTesters(t *testing.T, uri string) int64 {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int64
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM employee WHERE title = 'Load Tester'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLocalRefusesBadVariantAndChangesNothing: a typo'd key and a value that
// tries to inject a line are refused before anything is written.
func TestLocalRefusesBadVariantAndChangesNothing(t *testing.T) {
	l, st := localOnStack(t)
	original, _ := os.ReadFile(st.Config)
	for _, v := range []lab.Variant{
		{Name: "typo", PostgREST: map[string]string{"db-pol": "3"}},
		{Name: "inject", PostgREST: map[string]string{"log-level": "crit\"\ndb-anon-role = \"postgres"}},
		{Name: "remote-unix", PostgREST: map[string]string{"db-uri": "sideways"}},
	} {
		if _, err := l.Apply(context.Background(), v); err == nil {
			t.Errorf("variant %s was accepted", v.Name)
		}
		if now, _ := os.ReadFile(st.Config); !bytes.Equal(now, original) {
			t.Fatalf("variant %s changed the config:\n%s", v.Name, now)
		}
	}
}
