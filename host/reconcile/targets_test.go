package reconcile

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// target is a server the end-to-end tests run against, as pgx runs its
// tests over TCP and over Unix sockets.
type target struct {
	name      string
	reference bool
	binary    func(t *testing.T) string
}

var (
	miniOnce sync.Once
	miniBin  string
	miniErr  error
)

// targets are each real PostgREST of $LAB_POSTGREST (CI=true fails
// without it) and the reference server built from this module.
var targets = append(realTargets(), target{name: stack.ReferenceServer, reference: true, binary: func(t *testing.T) string {
	miniOnce.Do(func() {
		dir, err := os.MkdirTemp("", "local-mini-")
		if err != nil {
			miniErr = err
			return
		}
		miniBin = filepath.Join(dir, stack.ReferenceServer)
		out, err := exec.Command("go", "build", "-o", miniBin, "github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini").CombinedOutput()
		if err != nil {
			miniErr = fmt.Errorf("build postgrest-mini: %v: %s", err, out)
		}
	})
	if miniErr != nil {
		t.Fatal(miniErr)
	}
	return miniBin
}})

// realTargets are the binaries of $LAB_POSTGREST, each named by its version.
func realTargets() []target {
	var out []target
	for _, r := range labtest.RealList() {
		out = append(out, target{name: r.Name, binary: func(t *testing.T) string { return r.Binary(t) }})
	}
	return out
}

// TestTargets runs the same cases against real PostgREST and
// postgrest-mini, each as systemd user units and under the direct
// supervisor: stack up, fixture (returns when the target serves it), the
// eight benchmark scenarios through loadgen with bodies equal as JSON
// between the two servers, a restart through a variant gated on
// readiness, and restore. Under systemd also the pool metrics, an rts
// variant and, on the real server, every variant of every bundled
// experiment (bundledExperimentsServe).
func TestTargets(t *testing.T) {
	bodies := map[string]map[string]any{} // target -> scenario -> JSON body
	for _, tg := range targets {
		for _, sup := range []systemd.Mode{systemd.ModeSystemd, systemd.ModeDirect} {
			t.Run(tg.name+"/"+string(sup), func(t *testing.T) {
				l, st := localOn(t, stack.Options{Supervisor: sup, Postgrest: tg.binary(t)})
				if st.Reference != tg.reference {
					t.Fatalf("stack runs %s (reference %v), want reference %v", st.Binary, st.Reference, tg.reference)
				}
				got := scenarioBodies(t, st.URL)
				if bodies[tg.name] == nil {
					bodies[tg.name] = got
				} else if !reflect.DeepEqual(bodies[tg.name], got) {
					t.Errorf("%s answers differently under %s", tg.name, sup)
				}
				t.Run("scenarios", func(t *testing.T) { loadScenarios(t, st.URL) })
				t.Run("restart", func(t *testing.T) { restartGated(t, l, st) })
				if sup == systemd.ModeSystemd {
					t.Run("pool", func(t *testing.T) { poolWaiting(t, l, st) })
					t.Run("rts", func(t *testing.T) { rtsVariant(t, l, st) })
					if !tg.reference {
						t.Run("bundled", func(t *testing.T) { bundledExperimentsServe(t, l, st) })
					}
				}
			})
		}
	}
	real, mini := bodies["postgrest"], bodies[stack.ReferenceServer]
	if real == nil || mini == nil {
		return // a target was skipped (not in CI)
	}
	for name, want := range real {
		if !reflect.DeepEqual(mini[name], want) {
			a, _ := json.Marshal(want)
			b, _ := json.Marshal(mini[name])
			t.Errorf("%s: postgrest-mini's body differs from PostgREST's:\nPostgREST:      %.600s\npostgrest-mini: %.600s", name, a, b)
		}
	}
}

var randField = regexp.MustCompile(`\{rand \d+ \d+\}`)

// scenarioBodies GETs each read scenario's request with its random id
// fixed (the first of a few ids that gives a non-empty answer: the data is
// the same on every stack) and returns the bodies parsed as JSON.
func scenarioBodies(t *testing.T, url string) map[string]any {
	t.Helper()
	out := map[string]any{}
	client := &http.Client{Timeout: 30 * time.Second}
	reads := 0
	for _, name := range loadgen.BuiltinNames() {
		sc, err := loadgen.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		r := sc.Requests[0]
		if r.Method != http.MethodGet {
			continue
		}
		reads++
		for _, id := range []string{"3", "1", "8", "22", "50", "90", "127"} {
			path := randField.ReplaceAllString(r.Path, id)
			resp, err := client.Get(url + path)
			if err != nil {
				t.Fatalf("%s: GET %s: %v", name, path, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != r.Expect {
				t.Fatalf("%s: GET %s: %s %.300s", name, path, resp.Status, b)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatalf("%s: GET %s: not JSON: %v: %.300s", name, path, err, b)
			}
			if a, ok := v.([]any); !ok || len(a) > 0 { // RPCSimple's answer is a number
				out[name+" "+path] = v
				break
			}
		}
	}
	if len(out) != reads || reads < 10 { // the 2020 benchmark's six and the thread's exact four
		t.Fatalf("%d read scenarios answered, of %d, want every one (ten at least)", len(out), reads)
	}
	return out
}

// shortLoad is a bounded closed-model load: conns connections for d, at
// most max requests.
func shortLoad(t *testing.T, url, scenario string, conns int, d time.Duration, max int64) lab.LoadOutcome {
	t.Helper()
	return shortLoadSpec(t, url, lab.LoadSpec{Scenario: scenario}, conns, d, max)
}

// shortLoadSpec is shortLoad of spec's scenario (built-in or custom). A
// window in which no request was answered (GETAllEmbed takes hundreds of
// ms a request on a busy machine) is tried again, longer (×3, ×10, ×30),
// before the test fails; an error fails it at once.
func shortLoadSpec(t *testing.T, url string, spec lab.LoadSpec, conns int, d time.Duration, max int64) lab.LoadOutcome {
	t.Helper()
	var err error
	for _, f := range []time.Duration{1, 3, 10, 30} {
		var out lab.LoadOutcome
		if out, err = tryLoad(url, spec, conns, f*d, max); err == nil {
			return out
		}
		if out.Stats.Requests != 0 || out.Stats.Errors != 0 {
			break // an error, not a slow answer
		}
		t.Logf("%s: nothing answered in %v; trying longer", spec.Scenario, f*d)
	}
	t.Fatal(err)
	return lab.LoadOutcome{}
}

// tryLoad is shortLoadSpec returning its failure: no request answered, an
// error, or a failed cleanup.
func tryLoad(url string, spec lab.LoadSpec, conns int, d time.Duration, max int64) (lab.LoadOutcome, error) {
	scenario := spec.Scenario
	ld := &trial.Loader{Target: loadgen.Target{URL: url}, MaxRequests: max}
	spec.Seed, spec.Load = 1, lab.Load{Model: lab.ModelClosed, Connections: conns, Duration: d, Timeout: 10 * time.Second}
	out, err := ld.Load(context.Background(), spec)
	if err != nil {
		return out, fmt.Errorf("%s: %w", scenario, err)
	}
	if out.Stats.Requests == 0 || out.Stats.Errors != 0 {
		return out, fmt.Errorf("%s: %d requests, %d errors %v", scenario, out.Stats.Requests, out.Stats.Errors, out.Stats.ErrorKinds)
	}
	if err := ld.Cleanup(context.Background(), spec); err != nil {
		return out, fmt.Errorf("%s: cleanup: %w", scenario, err)
	}
	return out, nil
}

// loadScenarios drives each of the eight scenarios through loadgen briefly.
func loadScenarios(t *testing.T, url string) {
	for _, name := range loadgen.BuiltinNames() {
		out := shortLoad(t, url, name, 2, 700*time.Millisecond, 300)
		t.Logf("%-18s %4d requests, %6.0f req/s, p99 %.2f ms", name, out.Stats.Requests, out.Stats.Rate, out.Stats.LatencyMs.P99)
	}
}

func metric(t *testing.T, adminURL string) telemetry.PoolMetrics {
	t.Helper()
	m, err := telemetry.ScrapePool(context.Background(), nil, adminURL)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// restartGated applies a variant that needs a restart (db-pool), checks
// that the target serves the moment Apply returns and runs the new config,
// then restores the original.
func restartGated(t *testing.T, l *Server, st stack.Status) {
	ctx := context.Background()
	original, _ := os.ReadFile(st.Config)
	pid := mainPID(t, l)
	a, err := l.Apply(ctx, lab.Variant{Name: "pool-4", PostgREST: map[string]string{"db-pool": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	get(t, st.URL+"/artist?artist_id=eq.3") // no polling: Apply gated on readiness
	if now := mainPID(t, l); now == pid {
		t.Errorf("main PID %d unchanged: not restarted", pid)
	}
	if m := metric(t, st.AdminURL); m.Max != 4 {
		t.Errorf("pool max %v after the variant, want 4", m.Max)
	}
	t.Logf("ready %v after the restart", a.ReadyAfter.Round(time.Millisecond))
	if err := l.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	get(t, st.URL+"/artist?artist_id=eq.3")
	if b, _ := os.ReadFile(st.Config); string(b) != string(original) {
		t.Errorf("config not restored:\n%s", b)
	}
	if m := metric(t, st.AdminURL); m.Max != 10 {
		t.Errorf("pool max %v after restore, want 10", m.Max)
	}
}

// poolWaiting: with db-pool = 1, 10 clients make requests really wait;
// with db-pool = 10, 5 clients never wait, although PostgREST's raw
// waiting gauge counts the requests using a connection too. Each request
// holds its connection 100 ms (the fixture's sleep_ms), so the waiting
// does not depend on the machine's speed: a CPU-bound scenario such as
// GETAllEmbed can queue on the CPU instead of the pool on a busy machine
// (CI once saw a raw gauge of 1 with 10 clients).
// holdConnection is a request that holds its pool connection for 100 ms.
var holdConnection = lab.LoadSpec{Scenario: "hold", Custom: &lab.Scenario{Name: "hold", Method: "GET", Path: "/rpc/sleep_ms?ms=100"}}

func poolWaiting(t *testing.T, l *Server, st stack.Status) {
	ctx := context.Background()
	defer func() {
		if err := l.Restore(ctx); err != nil {
			t.Error(err)
		}
	}()
	for _, c := range []struct {
		pool, clients int
		wantWaiting   bool
	}{{1, 10, true}, {10, 5, false}} {
		if _, err := l.Apply(ctx, lab.Variant{Name: "pool", PostgREST: map[string]string{"db-pool": fmt.Sprint(c.pool)}}); err != nil {
			t.Fatal(err)
		}
		w, err := l.Watch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// At any scrape the requests that wait are there to be seen.
		out := shortLoadSpec(t, st.URL, holdConnection, c.clients, 2*time.Second, 2000)
		tel, err := w.Stop(ctx, out.Stats.Requests)
		if err != nil {
			t.Fatal(err)
		}
		p := tel.DB.Pool
		if p == nil || p.Scrapes < 3 {
			t.Fatalf("db-pool %d: pool stats %+v, want 3+ scrapes", c.pool, p)
		}
		t.Logf("db-pool %d, %d clients: %d requests; pool %+v", c.pool, c.clients, out.Stats.Requests, *p)
		if p.Size != c.pool || p.MaxInUse > c.pool || p.MaxInUse == 0 || p.Timeouts != 0 {
			t.Errorf("db-pool %d: size %d, in use %d, timeouts %d", c.pool, p.Size, p.MaxInUse, p.Timeouts)
		}
		if (p.MaxWaiting > 0) != c.wantWaiting {
			t.Errorf("db-pool %d, %d clients: really waiting max %d, want > 0: %v (raw gauge max %d)", c.pool, c.clients, p.MaxWaiting, c.wantWaiting, p.MaxGauge)
		}
	}
}

// rtsVariant applies GHC runtime options the two ways a variant can give
// them, +RTS arguments and GHCRTS, and checks where they land: on the
// command line or in the environment of the server; on real PostgREST in
// its memory (-A64m: a 64 MB allocation area, touched after a thousand
// requests, where the default RSS is about 45 MB); on the reference server
// a note that it has no GHC runtime.
func rtsVariant(t *testing.T, l *Server, st stack.Status) {
	ctx := context.Background()
	defer func() {
		if err := l.Restore(ctx); err != nil {
			t.Error(err)
		}
	}()
	for _, v := range []lab.Variant{
		{Name: "args", Args: []string{"+RTS", "-N1", "-A64m", "-RTS"}},
		{Name: "env", Env: map[string]string{"GHCRTS": "-N1 -A64m"}},
	} {
		a, err := l.Apply(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		pid := mainPID(t, l)
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if v.Args != nil && !strings.Contains(string(cmdline), "+RTS\x00-N1\x00-A64m\x00-RTS\x00") {
			t.Errorf("%s: command line %q lacks the RTS options", v.Name, cmdline)
		}
		if v.Env != nil && !strings.Contains(string(environ), "GHCRTS=-N1 -A64m\x00") {
			t.Errorf("%s: environment lacks GHCRTS", v.Name)
		}
		out := shortLoad(t, st.URL, "GETSingle", 2, 3*time.Second, 1500)
		rss := vmRSS(t, pid)
		t.Logf("%s: %d requests, RSS %d MB", v.Name, out.Stats.Requests, rss>>20)
		if !st.Reference && rss < 64<<20 {
			t.Errorf("%s: RSS %d MB after %d requests: -A64m did not reach the GHC runtime", v.Name, rss>>20, out.Stats.Requests)
		}
		var note string
		for _, c := range a.Changes {
			if c.Where == "note" {
				note = c.To
			}
		}
		if st.Reference != (note != "") || (st.Reference && !strings.Contains(note, "-N1 sets GOMAXPROCS; ignored: -A64m")) {
			t.Errorf("%s, reference %v: note %q", v.Name, st.Reference, note)
		}
	}
}

// vmRSS is a process's resident set size in bytes.
func vmRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}
