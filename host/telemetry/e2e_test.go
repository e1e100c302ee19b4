package telemetry

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// targets are the servers the end-to-end trial runs against: the real
// PostgREST binaries of $LAB_POSTGREST and postgrest-mini built from this module.
var targets = func() []target {
	var out []target
	for _, r := range labtest.RealList() {
		out = append(out, target{r.Name, func(t *testing.T) string { return r.Binary(t) }})
	}
	return append(out, target{"postgrest-mini", buildMini})
}()

type target struct {
	name string
	bin  func(t *testing.T) string
}

func buildMini(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "postgrest-mini")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini").CombinedOutput()
	if err != nil {
		t.Fatalf("build postgrest-mini: %v: %s", err, out)
	}
	return bin
}

func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// postmasterPID reads the cluster's postmaster.pid.
func postmasterPID(t *testing.T, c *labtest.Cluster) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.DataDir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		t.Fatalf("postmaster.pid: %q: %v", first, err)
	}
	return pid
}

// TestTrialWindow is the whole of one trial as the lab runs it, on the real
// PostgREST and on postgrest-mini: the server as a systemd user unit and PostgreSQL as a process
// tree, sampled at 10 Hz, a bounded burst of requests on loopback in a
// marked window, database counters and pool metrics around it, and the
// per-request figures derived from them.
func TestTrialWindow(t *testing.T) {
	if testing.Short() && !labtest.InCI() {
		t.Skip("-short: skipping the 20 s end-to-end trial (Chinook load, 10 s PostgreSQL stats flush)")
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) { trialWindow(t, tg.bin(t)) })
	}
}

func trialWindow(t *testing.T, bin string) {
	labtest.RequireSystemd(t)
	db := labtest.Chinook(t)
	ctx := context.Background()

	api, admin := freeLoopbackPort(t), freeLoopbackPort(t)
	conf := filepath.Join(t.TempDir(), "postgrest.conf")
	cfg := fmt.Sprintf("db-uri = %q\ndb-schemas = \"public\"\ndb-anon-role = \"web_anon\"\nserver-host = \"127.0.0.1\"\nserver-port = %d\nadmin-server-port = %d\ndb-pool = 3\nlog-level = \"crit\"\n",
		db.TCPURI("authenticator"), api, admin)
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	unit := unitName("pgrst")
	cg := systemdRun(t, unit, nil, bin, conf)
	adminURL := fmt.Sprintf("http://127.0.0.1:%d", admin)
	client := &http.Client{Timeout: 2 * time.Second}
	waitFor(t, 20*time.Second, "PostgREST /ready", func() bool {
		resp, err := client.Get(adminURL + "/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})

	reader := connect(t, db)
	if err := EnsureStatements(ctx, reader); err != nil {
		t.Fatal(err)
	}
	s := NewSampler(DefaultInterval,
		Source{Name: "postgrest", ControlGroup: cg},
		Source{Name: "postgres", RootPID: postmasterPID(t, db.Cluster)})
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := ReadDB(ctx, reader)
	if err != nil {
		t.Fatal(err)
	}
	s.Mark("load")
	// Closed loop, one request in flight, bounded by time and count.
	url := fmt.Sprintf("http://127.0.0.1:%d/artist?artist_id=eq.3", api)
	requests := int64(0)
	for start := time.Now(); time.Since(start) < 1500*time.Millisecond && requests < 20000; requests++ {
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", url, resp.Status)
		}
	}
	time.Sleep(2 * DefaultInterval) // a sample after the last request
	s.Mark("after")
	pool, err := ScrapePool(ctx, client, adminURL)
	if err != nil {
		t.Fatal(err)
	}
	checkMetricsCatalogue(t, bin, pool.All)
	rec := s.Stop()
	// PostgREST's pooled backends publish their counters within 1 s while
	// busy and 10 s once idle: poll until every request's transaction shows.
	readings := []DBCounters{before}
	var d DBDelta
	waitFor(t, 15*time.Second, "PostgreSQL counters of every request", func() bool {
		time.Sleep(200 * time.Millisecond)
		r, err := ReadDB(ctx, reader)
		if err != nil {
			t.Fatal(err)
		}
		readings = append(readings, r)
		d = SumDeltas(readings...)
		return d.Transactions() >= requests
	})

	use := rec.SummaryOf("load")
	pg, pgrst := use["postgres"], use["postgrest"]
	per := d.PerRequest(requests)
	t.Logf("%d requests", requests)
	t.Logf("postgrest: cpu %.3fs (%.0f µs/req) util %.2f peak RSS %.1f MiB procs %d threads %d fds %d ctxsw %d",
		pgrst.CPUSeconds, pgrst.CPUMicrosPerRequest(requests), pgrst.CPUUtil, float64(pgrst.PeakRSS)/(1<<20), pgrst.MaxProcs, pgrst.MaxThreads, pgrst.MaxFDs, pgrst.CtxSwitches)
	t.Logf("postgrest: peak anon RSS %.1f MiB, peak cgroup memory %.1f MiB", float64(pgrst.PeakRSSAnon)/(1<<20), float64(pgrst.PeakCgroup)/(1<<20))
	t.Logf("postgres:  cpu %.3fs (%.0f µs/req) util %.2f peak RSS %.1f MiB (anon %.1f MiB) procs %d", pg.CPUSeconds, pg.CPUMicrosPerRequest(requests), pg.CPUUtil, float64(pg.PeakRSS)/(1<<20), float64(pg.PeakRSSAnon)/(1<<20), pg.MaxProcs)
	t.Logf("db: %.2f statements/req, %.2f transactions/req after %.1fs, backends %v; pool %+v", per.Statements, per.Transactions, time.Since(rec.End).Seconds(), d.Backends, pool)

	if pgrst.Samples < 3 || pgrst.CPUSeconds <= 0 || pgrst.MaxProcs != 1 || pgrst.MaxFDs < 4 || pgrst.PeakRSS == 0 {
		t.Errorf("postgrest usage %+v", pgrst)
	}
	se, _ := rec.Source("postgrest")
	if !strings.HasPrefix(se.CPUFrom, "cgroup:") {
		t.Errorf("postgrest CPU from %q, want its cgroup", se.CPUFrom)
	}
	// postmaster, checkpointer, bgwriter, walwriter, autovacuum launcher,
	// logical replication launcher, + backends of PostgREST's pool and ours.
	if pg.MaxProcs < 6 || pg.CPUSeconds <= 0 {
		t.Errorf("postgres usage %+v", pg)
	}
	if per.Statements < 1 || per.Transactions < 1 || per.Transactions > 1.1 {
		t.Errorf("per request %+v, want >= 1 statement and 1 transaction (pg_stat_statements sees PostgREST's queries)", per)
	}
	if pool.Max != 3 || pool.Available+pool.Waiting > 3 {
		t.Errorf("pool %+v, want max 3", pool)
	}
	if m := rec.MachineSummary(rec.Start, rec.End); m.Samples < 3 || m.CPUCores <= 0 {
		t.Errorf("machine %+v", m)
	}
}

// checkMetricsCatalogue: the pgrst_* metrics a real PostgREST publishes
// are the catalogue's for its version (postgrest.Metrics), no more, no
// fewer. postgrest-mini is not checked (it publishes the pool's only).
func checkMetricsCatalogue(t *testing.T, bin string, all map[string]float64) {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	version := postgrest.VersionOf(string(out))
	if err != nil || version == "" {
		return
	}
	want := map[string]bool{}
	for _, m := range postgrest.Metrics(version) {
		want[m.Name] = true
		if _, ok := all[m.Name]; !ok {
			t.Errorf("PostgREST %s: no %s on /metrics; the catalogue has it since %s", version, m.Name, m.Since)
		}
	}
	for name := range all {
		if strings.HasPrefix(name, "pgrst_") && !want[name] {
			t.Errorf("PostgREST %s publishes %s; the catalogue does not have it for this version", version, name)
		}
	}
}
