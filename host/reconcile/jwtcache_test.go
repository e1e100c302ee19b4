package reconcile

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// TestJWTCacheCountersPerTrial runs the real PostgREST of LAB_POSTGREST
// with a jwt-secret and measures a window of requests carrying one of ten
// pooled tokens ({jwt ... pool=10}). PostgREST 14.0+ exposes
// pgrst_jwt_cache_*_total (its cache is on by default,
// jwt-cache-max-entries = 1000): the window records a lookup per request
// and a hit for all but the first use of each token, and the JWT cache
// metrics are known. PostgREST 13 has no such counters: the window records
// none (nil: unknown, not zero) and the metrics are unknown.
func TestJWTCacheCountersPerTrial(t *testing.T) {
	bin := labtest.PostgREST(t)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	build := lab.ParseBuild(string(out))
	major, _ := strconv.Atoi(strings.Split(build.Version, ".")[0])
	if major == 0 {
		t.Fatalf("%s --version: %q: no version", bin, out)
	}
	l, st := localOn(t, stack.Options{Supervisor: systemd.ModeDirect, Postgrest: bin})
	ctx := context.Background()
	const secret = "jwt-cache-test-secret-0123456789abcdef"
	if _, err := l.Apply(ctx, lab.Variant{Name: "jwt", PostgREST: map[string]string{"jwt-secret": secret}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Restore(context.Background()) })

	w, err := l.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc := lab.Scenario{Name: "jwt", Method: "GET", Path: "/artist?artist_id=eq.{rand 1 275}",
		Header: map[string]string{"Authorization": "Bearer {jwt role=web_anon exp=+1h pool=10}"}, Expect: 200}
	ld := &trial.Loader{Target: loadgen.Target{URL: st.URL}}
	res, err := ld.Load(ctx, lab.LoadSpec{Scenario: sc.Name, Custom: &sc, JWTSecret: secret, Seed: 1,
		Load: lab.Load{Model: lab.ModelClosed, Connections: 2, Duration: 2 * time.Second, Timeout: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	tel, err := w.Stop(ctx, res.Stats.Requests)
	if err != nil {
		t.Fatal(err)
	}
	n := res.Stats.Requests
	if n < 50 || res.Stats.Errors != 0 {
		t.Fatalf("load: %d requests, %d errors, status %v", n, res.Stats.Errors, res.Stats.Status)
	}
	j := tel.DB.JWTCache
	t.Logf("PostgREST %s: %d requests, JWT cache %+v, pool %+v", build.Version, n, j, tel.DB.Pool)
	hitRate, _ := lab.MetricByName("jwt_cache_hit_rate")
	rate, known := hitRate.Of(lab.Trial{DB: tel.DB, Load: lab.LoadStats{Requests: n}})
	if major < 14 {
		if j != nil || known {
			t.Errorf("PostgREST %s has no JWT cache counters: recorded %+v (metric known %v, %.1f)", build.Version, j, known, rate)
		}
		return
	}
	// The load generator's requests, and the readiness probes the window
	// may have seen (no token: no lookup).
	if j == nil || j.Requests < n || j.Requests > n+10 || j.Hits < j.Requests-10 || j.Hits > j.Requests || j.Evictions != 0 {
		t.Fatalf("PostgREST %s, %d requests with 10 tokens: JWT cache %+v, want a lookup per request, all but 10 hits, no evictions", build.Version, n, j)
	}
	if !known || rate < 90 {
		t.Errorf("jwt_cache_hit_rate %.1f%% (known %v), want above 90%%", rate, known)
	}
}
