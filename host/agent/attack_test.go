package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// The attack suite of issue 13: one case per finding, each an attack a
// token holder (or, where said, anyone on loopback) tried against a real
// agent on a real stack, with the outcome the fix guarantees. Every case
// failed on the agent before the fix. It runs under the direct supervisor
// and the systemd user manager, and the cases that involve the target
// also against the real PostgREST binary ($LAB_POSTGREST).

// attackSecret is the jwt-secret the rig's config starts with: no reply
// may show it.
const attackSecret = "original-jwt-secret-0123456789abcdef0123456789"

// rig is a real stack with the real server side, shared by the cases of
// one supervisor; each case serves it through its own agent.
type rig struct {
	st       stack.Status
	local    *reconcile.Server
	lcfg     reconcile.Config
	original []byte // the target's config before any case
}

func newRig(t *testing.T, supervisor systemd.Mode, postgrest string) *rig {
	t.Helper()
	s, st := upStack(t, supervisor, postgrest)
	// A secret in the original config, which replies must never show.
	src, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	f, err := configs.Parse(st.Config, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("jwt-secret", configs.String(attackSecret)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st.Config, f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &rig{st: st, original: f.Bytes(), lcfg: localConfig(t, s, st)}
	r.lcfg.ReadyTimeout = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r.local, err = reconcile.New(ctx, r.lcfg)
	if err != nil {
		t.Fatalf("host.New: %v", err)
	}
	t.Cleanup(func() { r.local.Close() }) // a case may reopen it (r3-6)
	return r
}

// logBuf collects the agent's log lines.
type logBuf struct {
	mu    sync.Mutex
	lines []string
}

func (l *logBuf) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logBuf) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// attacker is a token holder talking raw HTTP to a real agent (Serve on a
// loopback port) over the rig.
type attacker struct {
	t       *testing.T
	url     string
	leaseID string
	logs    *logBuf
	hc      *http.Client
}

func (r *rig) agent(t *testing.T, pol Policy, lease time.Duration) *attacker {
	t.Helper()
	logs := &logBuf{}
	h, err := NewHandler(r.local, Options{Token: []byte(testToken), Policy: pol, Lease: lease,
		Logf: func(f string, a ...any) { logs.logf(f, a...); t.Logf(f, a...) }})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(context.Background(), "127.0.0.1:0", false, false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("agent shutdown: %v", err)
		}
	})
	return &attacker{t: t, url: "http://" + ln.Addr().String() + "/" + APIVersion, logs: logs,
		hc: &http.Client{Timeout: 2 * time.Minute}}
}

// do sends a request with the token and the lease; it returns the
// status and the body.
func (a *attacker) do(method, path, reqID string, body io.Reader) (int, string) {
	a.t.Helper()
	req, err := http.NewRequest(method, a.url+path, body)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	if a.leaseID != "" {
		req.Header.Set(HeaderLease, a.leaseID)
	}
	if reqID != "" {
		req.Header.Set(HeaderRequestID, reqID)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (a *attacker) open() {
	a.t.Helper()
	status, body := a.do("POST", "/session", "", strings.NewReader(`{"driver":"attacker"}`))
	var s Lease
	if status != http.StatusCreated || json.Unmarshal([]byte(body), &s) != nil {
		a.t.Fatalf("open session: %d %s", status, body)
	}
	a.leaseID = s.ID
}

// close ends the lease; the agent restores.
func (a *attacker) close() (int, string) {
	a.t.Helper()
	status, body := a.do("DELETE", "/session", "", nil)
	a.leaseID = ""
	return status, body
}

func (a *attacker) apply(v string) (int, string) {
	a.t.Helper()
	return a.do("POST", "/apply", "", strings.NewReader(`{"variant":`+v+`}`))
}

// jsonString quotes s for a JSON body.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// mustBeOriginal checks that the target's config is the rig's original.
func (r *rig) mustBeOriginal(t *testing.T, when string) {
	t.Helper()
	if b, _ := os.ReadFile(r.st.Config); !bytes.Equal(b, r.original) {
		t.Fatalf("%s: the target's config is not the original:\n%s", when, b)
	}
}

func (r *rig) targetEnv(t *testing.T) []string {
	t.Helper()
	p, err := r.st.Controller.Properties(context.Background(), r.st.Target.Name)
	if err != nil || p.MainPID == 0 {
		t.Fatalf("target: %+v %v", p, err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.MainPID))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

func withEnv(names ...string) Policy {
	p := DefaultPolicy()
	p.Env = append(p.Env, names...)
	return p
}

// attackCase is one finding's attack; target says it involves the target
// (and runs against real PostgREST too).
type attackCase struct {
	name   string
	target bool
	run    func(t *testing.T, r *rig)
}

func attackCases() []attackCase {
	return []attackCase{
		{"1-env-quotes-smuggle-variable", true, attackEnvQuotes},
		{"2-env-db-uri-file", true, attackEnvDBURIFile},
		{"2-target-log-private", true, attackLogMode},
		{"2-env-unix-socket", true, attackEnvUnixSocket},
		{"2-env-server-host", true, attackEnvServerHost},
		{"2-env-superuser-and-catalog", true, attackSuperuser},
		{"3-postgresql-cannot-start", false, attackPGCannotStart},
		{"4-secrets-in-replies", true, attackSecrets},
		{"5-restore-then-apply-race", false, attackRestoreRace},
		{"5-body-trickled-past-lease", false, attackTrickle},
		{"5-window-limit", false, attackWindows},
		{"5-unauthenticated-connections-closed", false, attackUnauthConns},
		{"6-second-agent-same-stack", false, attackSecondAgent},
		{"7-request-id-other-body", false, attackRequestID},
		{"7-log-line-forgery", false, attackLogForgery},
		{"7-unknown-key-is-4xx", false, attackUnknownKey},
		{"7-line-separator-in-value", false, attackLineSeparator},
		{"7-pg-hba-trusts-local-users", false, attackPGHBA},
		// Issue 27's review, in its order (r3-N: finding N, the IDs
		// SECURITY.md cites).
		{"r3-1-windows-outlive-session", false, attackWindowsOutliveLease},
		{"r3-2a-log-symlink", true, attackLogSymlink},
		{"r3-2b-pg-hba-symlink", false, attackPGHBASymlink},
		{"r3-3-pg-command-settings", false, attackPGCommandSettings},
		{"r3-4-rts-args-write-file", true, attackRTSArgsWriteFile},
		{"r3-5-list-setting-restores", false, attackListSettingRestores},
		{"r3-6-password-with-hash", true, attackPasswordWithHash},
		{"r3-7-superuser-db-uri", true, attackSuperuserDBURI},
		// The lead's own attacks beyond the issue's: ways around its fixes.
		{"r3-own-program-args", true, attackProgramArgs},
		{"r3-own-env-spelling", false, attackEnvSpelling},
		{"r3-own-window-of-an-ended-session", false, attackWindowOfEndedLease},
		{"r3-own-search-path-hijack", true, attackSearchPathHijack},
		// Issue 41's review, named for what each tests.
		{"target-never-root", true, attackTargetNeverRoot},
		{"binary-others-can-replace", true, attackBinaryOthersCanReplace},
		{"app-settings-secret-redacted", true, attackSecretsRedactedByDefault},
		{"pg-settings-that-lower-protections", false, attackPGSettingsThatLowerProtections},
		// Issue 52's review: what runs around the target, named likewise.
		{"binary-refused-before-it-runs", true, attackBinaryProbedBeforeCheck},
		{"binary-link-repointed", true, attackBinaryLinkRepointed},
		{"target-sandboxed", true, attackTargetSandboxed},
		{"sandbox-cannot-be-lowered", false, attackSandboxCannotBeLowered},
	}
}

// TestAttack runs the suite under both supervisors with postgrest-mini,
// and the target's cases under the direct supervisor with real PostgREST.
func TestAttack(t *testing.T) {
	if os.Geteuid() != 0 {
		labtest.Need(t, "the attack suite runs the agent as root, as in production (uid %d)", os.Geteuid())
	}
	for _, sup := range []systemd.Mode{systemd.ModeDirect, systemd.ModeSystemd} {
		t.Run(string(sup), func(t *testing.T) {
			r := newRig(t, sup, "")
			for _, c := range attackCases() {
				t.Run(c.name, func(t *testing.T) {
					c.run(t, r)
					r.mustBeOriginal(t, "after the case")
				})
			}
		})
	}
	t.Run("direct-postgrest", func(t *testing.T) {
		bin := labtest.PostgREST(t)
		r := newRig(t, systemd.ModeDirect, bin)
		if r.st.Reference {
			t.Fatalf("stack runs postgrest-mini, not %s", bin)
		}
		for _, c := range attackCases() {
			if c.target {
				t.Run(c.name, func(t *testing.T) {
					c.run(t, r)
					r.mustBeOriginal(t, "after the case")
				})
			}
		}
	})
}

// Finding 1: values with single quotes once smuggled another variable
// (LD_PRELOAD) into the target's environment. Now each value arrives whole.
func attackEnvQuotes(t *testing.T, r *rig) {
	pol := withEnv("PGRST_APP_SETTINGS_A", "PGRST_APP_SETTINGS_B", "PGRST_APP_SETTINGS_C")
	pol.PostgRESTKeys = []string{"app.settings.*"} // privileged (issue 41)
	a := r.agent(t, pol, 0)
	a.open()
	vals := map[string]string{"PGRST_APP_SETTINGS_A": "x'", "PGRST_APP_SETTINGS_B": "' LAB_SMUGGLED=1 '", "PGRST_APP_SETTINGS_C": "'"}
	env, _ := json.Marshal(vals)
	status, body := a.apply(`{"name":"quotes","env":` + string(env) + `}`)
	if status != http.StatusOK {
		t.Fatalf("apply: %d %s", status, body)
	}
	got := r.targetEnv(t)
	for k, v := range vals {
		if !slicesContains(got, k+"="+v) {
			t.Errorf("target environment lacks %s=%q: %q", k, v, got)
		}
	}
	for _, e := range got {
		if strings.HasPrefix(e, "LAB_SMUGGLED=") {
			t.Errorf("a value smuggled %q into the target's environment", e)
		}
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	for _, e := range r.targetEnv(t) {
		if strings.HasPrefix(e, "PGRST_APP_SETTINGS_") {
			t.Errorf("after restore the target still has %q", e)
		}
	}
}

// Finding 2: PGRST_DB_URI=@file made the target read a file, and the
// error reply quoted it from the log tail.
func attackEnvDBURIFile(t *testing.T, r *rig) {
	secret := filepath.Join(t.TempDir(), "shadow")
	const marker = "SECRET-MARKER-7f3a9c"
	if err := os.WriteFile(secret, []byte("postgres://"+marker+"@127.0.0.1/x\n"+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := r.agent(t, withEnv("PGRST_DB_URI"), 0)
	a.open()
	status, body := a.apply(`{"name":"file","env":{"PGRST_DB_URI":` + jsonString("@"+secret) + `}}`)
	if status != http.StatusForbidden || strings.Contains(body, marker) {
		t.Errorf("PGRST_DB_URI=@file: %d %s, want 403 without the file's content", status, body)
	}
	status, body = a.apply(`{"name":"file2","postgrest":{"db-uri":` + jsonString("@"+secret) + `}}`)
	if status != http.StatusForbidden || strings.Contains(body, marker) {
		t.Errorf("db-uri = @file: %d %s, want 403", status, body)
	}
	if status, body := a.close(); status != http.StatusNoContent || strings.Contains(body, marker) {
		t.Fatalf("close: %d %s", status, body)
	}
}

// Finding 2: logs/target.log was 0644, readable by every local user.
func attackLogMode(t *testing.T, r *rig) {
	for _, f := range []string{r.lcfg.TargetSpec.LogFile} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %04o, want 0600", f, fi.Mode().Perm())
		}
	}
}

// Finding 2: PGRST_SERVER_UNIX_SOCKET replaced a root-owned file with a
// socket, and the restore deleted it.
func attackEnvUnixSocket(t *testing.T, r *rig) {
	victim := filepath.Join(t.TempDir(), "victim.conf")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := r.agent(t, withEnv("PGRST_SERVER_UNIX_SOCKET", "PGRST_SERVER_UNIX_SOCKET_MODE"), 0)
	a.open()
	status, body := a.apply(`{"name":"sock","env":{"PGRST_SERVER_UNIX_SOCKET":` + jsonString(victim) + `,"PGRST_SERVER_UNIX_SOCKET_MODE":"777"}}`)
	if status != http.StatusForbidden {
		t.Errorf("PGRST_SERVER_UNIX_SOCKET: %d %s, want 403", status, body)
	}
	a.close()
	if b, err := os.ReadFile(victim); err != nil || string(b) != "precious\n" {
		t.Fatalf("the victim file is gone or changed: %q %v", b, err)
	}
}

// Finding 2: PGRST_SERVER_HOST moved the listener (0.0.0.0 exposes it).
func attackEnvServerHost(t *testing.T, r *rig) {
	a := r.agent(t, withEnv("PGRST_SERVER_HOST", "PGRST_SERVER_PORT"), 0)
	a.open()
	for _, v := range []string{
		`{"name":"host","env":{"PGRST_SERVER_HOST":"0.0.0.0"}}`,
		`{"name":"port","env":{"PGRST_SERVER_PORT":"1"}}`,
		`{"name":"host2","postgrest":{"server-host":"0.0.0.0"}}`,
	} {
		if status, body := a.apply(v); status != http.StatusForbidden {
			t.Errorf("%s: %d %s, want 403", v, status, body)
		}
	}
	a.close()
	resp, err := http.Get(r.st.URL + "/")
	if err != nil {
		t.Fatalf("the target no longer answers at %s: %v", r.st.URL, err)
	}
	resp.Body.Close()
}

// Finding 2: PGRST_DB_URI as the superuser with db-anon-role = postgres
// and db-schemas = pg_catalog served pg_authid to anonymous requests.
func attackSuperuser(t *testing.T, r *rig) {
	a := r.agent(t, withEnv("PGRST_DB_URI"), 0)
	a.open()
	status, body := a.apply(`{"name":"su","env":{"PGRST_DB_URI":` + jsonString(r.st.AdminURI) + `},"postgrest":{"db-anon-role":"postgres","db-schemas":"pg_catalog"}}`)
	if status != http.StatusForbidden {
		t.Errorf("superuser URI, anon role and catalogue: %d %s, want 403", status, body)
	}
	for _, v := range []string{
		`{"name":"role","postgrest":{"db-anon-role":"postgres"}}`,
		`{"name":"schemas","postgrest":{"db-schemas":"pg_catalog"}}`,
		`{"name":"uri","env":{"PGRST_DB_URI":` + jsonString(r.st.AdminURI) + `}}`,
	} {
		if status, body := a.apply(v); status != http.StatusForbidden {
			t.Errorf("%s: %d %s, want 403", v, status, body)
		}
	}
	resp, err := http.Get(r.st.URL + "/pg_authid")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK && strings.Contains(string(b), "rolname") {
			t.Errorf("anonymous GET /pg_authid returned rows: %.200s", b)
		}
	}
	a.close()
}

// Finding 3: shared_buffers = 200GB kept PostgreSQL from starting, and
// every restore needed a connection; PostgreSQL stayed down.
func attackPGCannotStart(t *testing.T, r *rig) {
	// A lease longer than the failing apply (which waits for PostgreSQL
	// until ReadyTimeout): the restore is the one DELETE /session asks for.
	a := r.agent(t, DefaultPolicy(), 2*time.Minute)
	a.open()
	status, body := a.apply(`{"name":"huge","postgresql":{"shared_buffers":"200GB"}}`)
	if strings.Contains(body, "last lines of its log") {
		t.Errorf("the apply's error reply carries log lines: %s", body)
	}
	t.Logf("apply shared_buffers = 200GB: %d %.300s", status, body)
	status, body = a.close()
	if status != http.StatusNoContent {
		t.Errorf("close after the variant: %d %s, want 204 (restored)", status, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var conn *pgx.Conn
	var err error
	for conn == nil {
		if conn, err = pgx.Connect(ctx, r.st.AdminURI); err != nil {
			conn = nil
			if ctx.Err() != nil {
				t.Fatalf("PostgreSQL does not come back after the restore: %v", err)
			}
			time.Sleep(100 * time.Millisecond) // polling PostgreSQL's state
		}
	}
	defer conn.Close(ctx)
	var sb string
	if err := conn.QueryRow(ctx, "SHOW shared_buffers").Scan(&sb); err != nil || sb == "200GB" {
		t.Fatalf("shared_buffers after the restore: %q %v", sb, err)
	}
	j, err := configs.OpenJournal(r.st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := j.Pending(); len(p) != 0 {
		t.Fatalf("journal still holds %v after the restore", p)
	}
}

// Finding 4: replies echoed the old jwt-secret (from) and db-uri passwords.
func attackSecrets(t *testing.T, r *rig) {
	pol := DefaultPolicy()
	pol.PostgRESTKeys = []string{"jwt-secret", "db-uri", "db-pool"}
	a := r.agent(t, pol, 0)
	a.open()
	const newSecret = "attacker-sees-this-secret-0123456789abcdef"
	const password = "Sup3rSecretPassw0rd"
	uri := fmt.Sprintf("postgres://authenticator:%s@127.0.0.1:%d/%s", password, r.st.PGPort, r.st.Database)
	status, body := a.apply(`{"name":"secrets","postgrest":{"jwt-secret":` + jsonString(newSecret) + `,"db-uri":` + jsonString(uri) + `}}`)
	if status != http.StatusOK {
		t.Fatalf("apply: %d %s", status, body)
	}
	for _, s := range []string{attackSecret, newSecret, password} {
		if strings.Contains(body, s) {
			t.Errorf("the reply shows the secret %q: %s", s, body)
		}
	}
	if strings.Contains(a.logs.text(), password) || strings.Contains(a.logs.text(), newSecret) {
		t.Errorf("the agent's log shows a secret:\n%s", a.logs.text())
	}
	a.close()
}

// Finding 5: a restore followed 50 ms later by an apply left the variant
// in place but marked clean: closing the lease did not restore it.
func attackRestoreRace(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	if status, body := a.apply(`{"name":"v1","postgrest":{"db-pool":"3"}}`); status != http.StatusOK {
		t.Fatalf("apply v1: %d %s", status, body)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.do("POST", "/restore", "", strings.NewReader(`{}`))
	}()
	time.Sleep(50 * time.Millisecond) // the attack: an apply while the restore runs
	if status, body := a.apply(`{"name":"v2","postgrest":{"db-pool":"4"}}`); status != http.StatusOK {
		t.Fatalf("apply v2: %d %s", status, body)
	}
	wg.Wait()
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	r.mustBeOriginal(t, "after closing the session")
}

// Finding 5: an apply body trickled in past the lease was applied after
// the lease expired, and stayed.
func attackTrickle(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 2*time.Second)
	a.open()
	pr, pw := io.Pipe()
	type answer struct {
		status int
		body   string
	}
	done := make(chan answer, 1)
	go func() {
		s, b := a.apply2(pr)
		done <- answer{s, b}
	}()
	body := `{"variant":{"name":"late","postgrest":{"db-pool":"5"}}}`
	if _, err := pw.Write([]byte(body[:10])); err != nil {
		t.Fatal(err)
	}
	// The rest of the body only once the lease has run out.
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, hb := a.do("GET", "/health", "", nil)
		var h Health
		_ = json.Unmarshal([]byte(hb), &h)
		if status == http.StatusOK && !h.Leased {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease did not run out: %s", hb)
		}
		time.Sleep(50 * time.Millisecond) // polling the agent's state
	}
	if _, err := pw.Write([]byte(body[10:])); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	ans := <-done
	if ans.status == http.StatusOK {
		t.Errorf("an apply read past the lease was applied: %s", ans.body)
	}
	r.mustBeOriginal(t, "after the late apply")
	a.leaseID = ""
}

// apply2 posts an apply whose body is read from body.
func (a *attacker) apply2(body io.Reader) (int, string) {
	req, _ := http.NewRequest("POST", a.url+"/apply", body)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set(HeaderLease, a.leaseID)
	resp, err := a.hc.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Finding 5: each window held a superuser connection with no limit.
func attackWindows(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	refused := false
	for i := 0; i < 12 && !refused; i++ {
		status, body := a.do("POST", "/windows", "", strings.NewReader(`{}`))
		switch status {
		case http.StatusCreated:
		case http.StatusTooManyRequests:
			refused = true
			if i < 2 {
				t.Errorf("window %d refused already: %s", i, body)
			}
		default:
			t.Fatalf("window %d: %d %s", i, status, body)
		}
	}
	if !refused {
		t.Error("12 recording windows were accepted, want a 429 before")
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
}

// Finding 5: connections answered 401 stayed open for 2 minutes with no
// cap. Now a 401 closes its connection.
func attackUnauthConns(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	host := strings.TrimPrefix(strings.TrimSuffix(a.url, "/"+APIVersion), "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 20; i++ {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET /%s/health HTTP/1.1\r\nHost: %s\r\n\r\n", APIVersion, host)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("no token: %d", resp.StatusCode)
		}
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("connection %d stays open after its 401: %v", i, err)
		}
	}
	if status, _ := a.do("GET", "/health", "", nil); status != http.StatusOK {
		t.Fatalf("health with the token: %d", status)
	}
}

// Finding 6: a second agent on the same stack reverted the first one's
// live variant and gave a second driver a concurrent lease.
func attackSecondAgent(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	if status, body := a.apply(`{"name":"first","postgrest":{"db-pool":"3"}}`); status != http.StatusOK {
		t.Fatalf("apply: %d %s", status, body)
	}
	applied, _ := os.ReadFile(r.st.Config)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	second, err := reconcile.New(ctx, r.lcfg)
	if err == nil {
		second.Close()
		t.Errorf("a second server side opened the same stack")
	} else if !strings.Contains(err.Error(), "in use") {
		t.Errorf("second agent: %v, want a refusal saying the stack is in use", err)
	}
	if b, _ := os.ReadFile(r.st.Config); !bytes.Equal(b, applied) {
		t.Errorf("the second agent changed the first one's live variant")
	}
	a.close()
}

// Finding 7: a repeated request ID with another body got the first answer.
func attackRequestID(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	if status, body := a.do("POST", "/apply", "id-1", strings.NewReader(`{"variant":{"name":"a","postgrest":{"db-pool":"3"}}}`)); status != http.StatusOK {
		t.Fatalf("first: %d %s", status, body)
	}
	if status, body := a.do("POST", "/apply", "id-1", strings.NewReader(`{"variant":{"name":"a","postgrest":{"db-pool":"3"}}}`)); status != http.StatusOK {
		t.Fatalf("retry with the same body: %d %s", status, body)
	}
	if status, body := a.do("POST", "/apply", "id-1", strings.NewReader(`{"variant":{"name":"b","postgrest":{"db-pool":"5"}}}`)); status != http.StatusConflict {
		t.Errorf("same ID, other body: %d %s, want 409", status, body)
	}
	a.close()
}

// Finding 7: the request path was logged unquoted; %0a forged a log line,
// no token needed.
func attackLogForgery(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	resp, err := http.Get(a.url + "/health%0aFORGED-LINE%20agent%20restored")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, l := range a.logs.lines {
		if strings.Contains(l, "\n") {
			t.Errorf("a log entry spans lines: %q", l)
		}
	}
	if !strings.Contains(a.logs.text(), "FORGED-LINE") {
		t.Fatalf("the refused request was not logged: %q", a.logs.text())
	}
}

// Finding 7: unknown or misspelled keys answered 500.
func attackUnknownKey(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	status, body := a.apply(`{"name":"typo","postgrest":{"db-pol":"3"}}`)
	if status != http.StatusUnprocessableEntity && status != http.StatusBadRequest || !strings.Contains(body, "did you mean") {
		t.Errorf("misspelled key: %d %s, want 400/422 with a suggestion", status, body)
	}
	status, body = a.apply(`{"name":"typo2","dropin":{"CPUAfinity":"0"}}`)
	if status/100 != 4 {
		t.Errorf("misspelled drop-in key: %d %s, want 4xx", status, body)
	}
	a.close()
}

// Finding 7: U+2028 (a line separator to some readers) was accepted.
func attackLineSeparator(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	for _, v := range []string{
		`{"name":"ls","postgrest":{"db-channel":"a\u2028b"}}`,
		`{"name":"ps","postgrest":{"db-channel":"a\u2029b"}}`,
		`{"name":"bidi","postgrest":{"db-channel":"a\u202eb"}}`,
		`{"name":"env","env":{"PGRST_DB_POOL":"4\u2028PGRST_X=1"}}`,
	} {
		if status, body := a.apply(v); status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s, want 422", v, status, body)
		}
	}
	a.close()
}

// Finding 7: the stack's pg_hba.conf trusted every local user, as any role.
func attackPGHBA(t *testing.T, r *rig) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, role := range []string{"postgres", "web_anon", "nobody"} {
		uri := fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", role, r.st.PGPort, r.st.Database)
		if conn, err := pgx.Connect(ctx, uri); err == nil {
			conn.Close(ctx)
			t.Errorf("a local user connected over TCP as %s without a password", role)
		}
	}
	// What the lab needs still works: the target's role over TCP.
	conn, err := pgx.Connect(ctx, r.st.TCPURI)
	if err != nil {
		t.Fatalf("the target's role over TCP: %v", err)
	}
	conn.Close(ctx)
}

// TestAttackFiles covers the findings about files on the agent's host
// (7): a token file owned by another user, a TLS key others may read.
func TestAttackFiles(t *testing.T) {
	if os.Geteuid() != 0 {
		labtest.Need(t, "giving a file to another user needs root (uid %d)", os.Geteuid())
	}
	t.Run("7-token-owned-by-another-user", func(t *testing.T) {
		p := agenttest.TokenFile(t, testToken)
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadToken(p); err == nil || !strings.Contains(err.Error(), "owned by") {
			t.Fatalf("token file owned by uid 65534: %v, want a refusal", err)
		}
	})
	t.Run("7-tls-key-mode", func(t *testing.T) {
		certs := agenttest.NewCerts(t, "127.0.0.1")
		if err := os.Chmod(certs.ServerKey, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ServerTLS(TLSFiles{Cert: certs.ServerCert, Key: certs.ServerKey}); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Fatalf("a 0644 TLS key: %v, want a refusal", err)
		}
	})
}

func slicesContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
