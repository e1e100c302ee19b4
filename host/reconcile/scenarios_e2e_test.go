package reconcile

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
)

const e2eSecret = "reallyreallyreallyreallyverysafe"

// e2eTargets is a targets file in vegeta's format written for this test,
// after the shape of PostgREST's test/load/targets.http: reads, writes
// under "Prefer: tx=rollback" (one with a body file), an RPC and a
// misspelled table (404, part of the mix).
const e2eTargets = `# reads
GET http://postgrest/artist?artist_id=eq.3
Prefer: tx=commit

HEAD http://postgrest/album?artist_id=eq.1

# writes that must leave nothing behind
POST http://postgrest/employee?columns=employee_id,last_name,first_name
Prefer: tx=rollback
Content-Type: application/json
@post.json

PATCH http://localhost/employee?employee_id=eq.1
Prefer: tx=rollback
Content-Type: application/json
@patch.json

DELETE http://127.0.0.1/employee?employee_id=eq.8
Prefer: tx=rollback

GET http://postgrest/rpc/add_them?a=1&b=2&c=3&d=4&e=5

# Misspelled relations
GET http://postgrest/artixt?artist_id=eq.1
`

// TestScenariosOnTargets runs the request kinds of issue 14 on the real
// PostgREST and on postgrest-mini, each a plain process on a fresh Chinook
// with db-tx-end = commit-allow-override, jwt-secret, server-timing-enabled
// and db-pool = 1 (as PostgREST's postgrest-loadtest):
//
//   - a targets file replayed through the Loader: every answer below 500,
//     writes answered 201/204, and the employee table (row count and
//     content) the same before and after;
//   - JWT: a token's role claim switches the role (whoami); the JWT
//     scenarios (one token, a pool, a new token per request) answer 200,
//     all of them, and signed with a wrong secret 401;
//   - Server-Timing on /rpc/pause (pg_sleep(0.05), a tiny answer; one
//     connection): five phases on every answer; what their sum is
//     compared to depends on the clock the server times them with (see
//     serverTiming).
func TestScenariosOnTargets(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			db := labtest.Chinook(t)
			bin := tg.binary(t)
			url, pid := startPlain(t, bin, db)
			ver, _ := BinaryVersion(context.Background(), bin)
			clock := postgrest.PhaseClock(ver)
			t.Run("targets-rollback", func(t *testing.T) { targetsRollback(t, url, db) })
			t.Run("jwt", func(t *testing.T) { jwtScenarios(t, url) })
			t.Run("server-timing", func(t *testing.T) { serverTiming(t, url, pid, clock) })
		})
	}
}

// startPlain runs bin (PostgREST's command line) on db and returns its URL
// once it serves artist.
func startPlain(t *testing.T, bin string, db labtest.DB) (string, int) {
	t.Helper()
	// jwt_user: the role a token switches to; whoami tells who runs.
	if err := db.Psql(db.Name, `GRANT UPDATE ON employee TO web_anon;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'jwt_user') THEN CREATE ROLE jwt_user NOLOGIN; END IF; END $$;
GRANT jwt_user TO authenticator;
GRANT USAGE ON SCHEMA public TO jwt_user;
CREATE FUNCTION whoami() RETURNS text LANGUAGE sql AS 'SELECT current_user::text';
GRANT EXECUTE ON FUNCTION whoami() TO web_anon, jwt_user;
CREATE FUNCTION pause() RETURNS int LANGUAGE sql AS 'SELECT 1 FROM pg_sleep(0.05)';
GRANT EXECUTE ON FUNCTION pause() TO web_anon`); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	conf := filepath.Join(t.TempDir(), "postgrest.conf")
	cfg := fmt.Sprintf("db-uri = %q\ndb-schemas = \"public\"\ndb-anon-role = \"web_anon\"\nserver-host = \"127.0.0.1\"\nserver-port = %d\n"+
		"db-pool = 1\nlog-level = \"crit\"\ndb-tx-end = \"commit-allow-override\"\njwt-secret = %q\nserver-timing-enabled = true\n",
		db.TCPURI("authenticator"), port, e2eSecret)
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var mu sync.Mutex
	cmd := exec.Command(bin, conf)
	cmd.Stdout, cmd.Stderr = lockedWriter{&mu, &out}, lockedWriter{&mu, &out}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := &http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := client.Get(url + "/artist?limit=1"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return url, cmd.Process.Pid
			}
		}
		if time.Now().After(deadline) {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%s does not serve /artist after 30 s:\n%s", bin, out.String())
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// load runs spec's scenario with the Loader: one connection, closed loop,
// bounded by d and max (max is the bound meant to stop it; d only guards
// against a stuck target on this shared machine).
func load(t *testing.T, url string, spec lab.LoadSpec, d time.Duration, max int64) lab.LoadOutcome {
	t.Helper()
	spec.Seed = 1
	spec.Load = lab.Load{Model: lab.ModelClosed, Connections: 1, Duration: d, Timeout: 10 * time.Second}
	out, err := (&trial.Loader{Target: loadgen.Target{URL: url}, MaxRequests: max}).Load(context.Background(), spec)
	if err != nil {
		t.Fatalf("%s: %v", spec.Scenario, err)
	}
	return out
}

func employees(t *testing.T, db labtest.DB) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), db.TCPURI("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	var sum string
	if err := conn.QueryRow(context.Background(), "SELECT count(*), md5(string_agg(e::text, ',' ORDER BY employee_id)) FROM employee e").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d rows, md5 %s", n, sum)
}

func targetsRollback(t *testing.T, url string, db labtest.DB) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"targets.http": e2eTargets,
		"post.json":    `{"employee_id":900,"last_name":"Rollback","first_name":"Tx"}`,
		"patch.json":   `{"title":"Rolled back"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := &lab.Experiment{}
	e.UseTargets(filepath.Join(dir, "targets.http"), true)
	before := employees(t, db)
	out := load(t, url, lab.LoadSpec{Scenario: lab.TargetsScenario, Custom: &e.Custom[0]}, 30*time.Second, 7*10)
	after := employees(t, db)
	st := out.Stats
	t.Logf("%d requests, %.0f req/s, status %v; employee before: %s, after: %s", st.Requests, st.Rate, st.Status, before, after)
	if st.Requests < 70 || st.Errors != 0 {
		t.Fatalf("%d requests, %d errors %v", st.Requests, st.Errors, st.ErrorKinds)
	}
	for _, code := range []string{"200", "201", "204", "404"} {
		if st.Status[code] == 0 {
			t.Errorf("no %s answers: %v", code, st.Status)
		}
	}
	if before != after {
		t.Errorf("Prefer: tx=rollback left the employee table changed: before %s, after %s", before, after)
	}
}

func jwtScenarios(t *testing.T, url string) {
	for _, c := range []struct {
		token, want string
		status      int
	}{{"", `"web_anon"`, 200}, {hs256(e2eSecret, `{"role":"jwt_user"}`), `"jwt_user"`, 200},
		{hs256(e2eSecret, `{"role":"jwt_user","exp":1000000000}`), `"code":"PGRST303"`, 401}} {
		req, _ := http.NewRequest("GET", url+"/rpc/whoami", nil)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
			t.Errorf("whoami with token %q: %s %s, want %s", c.token, resp.Status, b, c.want)
		}
	}
	path := "/artist?select=*&artist_id=eq.{rand 1 275}"
	for _, field := range []string{"{jwt role=web_anon exp=+1h}", "{jwt role=web_anon exp=+1h pool=10}", "{jwt role=web_anon exp=+1h unique}"} {
		for _, c := range []struct {
			secret string
			status int
		}{{e2eSecret, 200}, {"wrongwrongwrongwrongwrongwrongwr", 401}} {
			sc := lab.Scenario{Name: "jwt", Method: "GET", Path: path, Header: map[string]string{"Authorization": "Bearer " + field}, Expect: c.status}
			out := load(t, url, lab.LoadSpec{Scenario: sc.Name, Custom: &sc, JWTSecret: c.secret}, 20*time.Second, 50)
			st := out.Stats
			t.Logf("%s, status %d expected: %d requests, %.0f req/s, status %v", field, c.status, st.Requests, st.Rate, st.Status)
			if st.Requests < 50 || st.Errors != 0 || st.Status[fmt.Sprint(c.status)] != st.Requests {
				t.Errorf("%s signed for %d: %d requests, %d errors, status %v", field, c.status, st.Requests, st.Errors, st.Status)
			}
		}
	}
}

// timingHeader is PostgREST 13's Server-Timing format.
var timingHeader = regexp.MustCompile(`^jwt;dur=\d+\.\d, parse;dur=\d+\.\d, plan;dur=\d+\.\d, transaction;dur=\d+\.\d, response;dur=\d+\.\d$`)

func serverTiming(t *testing.T, url string, pid int, clock string) {
	req, _ := http.NewRequest("POST", url+"/employee", strings.NewReader(`{"employee_id":901,"last_name":"Rollback","first_name":"Tx"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Prefer", "tx=rollback")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if h := resp.Header.Get("Server-Timing"); resp.StatusCode != 201 || !timingHeader.MatchString(h) || resp.Header.Get("Preference-Applied") != "tx=rollback" {
		t.Errorf("POST with tx=rollback: %s, Server-Timing %q, Preference-Applied %q", resp.Status, h, resp.Header.Get("Preference-Applied"))
	}
	cpu0 := procCPU(t, pid)
	sc := lab.Scenario{Name: "pause", Method: "GET", Path: "/rpc/pause", Expect: 200}
	out := load(t, url, lab.LoadSpec{Scenario: sc.Name, Custom: &sc}, 30*time.Second, 30)
	st := out.Stats
	cpuPerReq := (procCPU(t, pid) - cpu0) / float64(st.Requests) * 1000
	tm := st.ServerTiming
	if tm == nil || tm.Requests != st.Requests || len(tm.Phases) != 5 {
		t.Fatalf("%d requests, server timing %+v", st.Requests, tm)
	}
	var sumMeans float64
	largest := tm.Phases[0]
	for i, p := range tm.Phases {
		t.Logf("%-11s mean %6.2f ms  p50 %6.2f  p99 %6.2f", p.Name, p.MeanMs, p.P50Ms, p.P99Ms)
		if p.Name != lab.PhaseNames[i] || p.MeanMs < 0 {
			t.Errorf("phase %d: %+v", i, p)
		}
		sumMeans += p.MeanMs
		if p.MeanMs > largest.MeanMs {
			largest = p
		}
	}
	t.Logf("sum of phases: min %.2f ms, mean %.2f ms (sum of means %.2f), p50 %.2f ms; generator latency min %.2f ms, mean %.2f ms, p50 %.2f ms; server process CPU %.2f ms/request",
		tm.Total.MinMs, tm.Total.MeanMs, sumMeans, tm.Total.P50Ms, st.LatencyMs.Min, st.LatencyMs.Mean, st.LatencyMs.P50, cpuPerReq)
	if clock == postgrest.ClockWall && (largest.Name != "transaction" || largest.MinMs < 49) {
		t.Errorf("largest phase %+v, want transaction, at least 50 ms (pg_sleep)", largest)
	}
	if d := tm.Total.MeanMs - sumMeans; d > 0.01*sumMeans+0.01 || d < -0.01*sumMeans-0.01 {
		t.Errorf("mean of the sums %.3f ms, sum of the means %.3f ms", tm.Total.MeanMs, sumMeans)
	}
	if clock != postgrest.ClockWall {
		// PostgREST before 14.2 (13.0.8 here) times its phases with
		// timeit-2.0's timeItT, which reads getCPUTime: the CPU time of
		// the whole process, not wall time (PostgREST#4522, fixed in 14.2
		// and 16.0 with a monotonic clock; 14.17 is tested below, as
		// postgrest-mini is). Waiting for PostgreSQL (here pg_sleep(0.05)) costs no
		// CPU, so the phases sum to far less than the request takes, and
		// to no more than the CPU the process spent per request (/proc;
		// 10 ms ticks over the run).
		if tm.Total.MeanMs > 0.5*st.LatencyMs.Mean {
			t.Errorf("phases sum to %.2f ms, the requests took %.2f ms: wall time? (PostgREST before 14.2 reports CPU time)", tm.Total.MeanMs, st.LatencyMs.Mean)
		}
		if tm.Total.MeanMs > 1.1*cpuPerReq+0.5 {
			t.Errorf("phases sum to %.2f ms CPU per request, the process used %.2f ms per request", tm.Total.MeanMs, cpuPerReq)
		}
		return
	}
	// postgrest-mini and PostgREST from 14.2 time their phases on the wall
	// clock: the fastest request's phases sum to within 10 % of the
	// fastest latency the generator measured, which adds loopback and
	// HTTP handling of a tiny answer only (under a millisecond, against
	// 50 ms of pg_sleep). Minima,
	// because on this shared machine the generator is sometimes scheduled
	// late after an answer arrived, which inflates latency, not phases.
	if r := tm.Total.MinMs / st.LatencyMs.Min; r < 0.9 || r > 1.0+0.3/st.LatencyMs.Min {
		t.Errorf("fastest request: phases sum to %.2f ms, the generator measured %.2f ms: ratio %.3f, want 0.9..1 (plus rounding)", tm.Total.MinMs, st.LatencyMs.Min, r)
	}
}

// procCPU is a process's user+system CPU time in seconds (/proc/PID/stat,
// clock ticks of 10 ms).
func procCPU(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100
}

// hs256 signs claims with secret (independently of the load generator).
func hs256(secret, claims string) string {
	enc := base64.RawURLEncoding.EncodeToString
	in := enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(claims))
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(in))
	return in + "." + enc(m.Sum(nil))
}
