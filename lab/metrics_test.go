package lab

import (
	"math"
	"testing"
)

func TestErrorsMetric(t *testing.T) {
	m, ok := MetricByName("errors")
	if !ok {
		t.Fatal("no errors metric")
	}
	for _, c := range []struct {
		name                      string
		requests, errors, dropped int64
		want                      float64
		known                     bool
	}{
		{"nothing sent", 0, 0, 0, 0, false},
		{"all dropped", 0, 0, 50, 100, true},
		{"half dropped, rest fine", 50, 0, 50, 50, true},
		{"some failed", 200, 10, 0, 5, true},
		{"failed and dropped", 90, 9, 10, 19, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, known := m.Of(Trial{Load: LoadStats{Requests: c.requests, Errors: c.errors, Dropped: c.dropped}})
			if known != c.known || (known && (math.IsNaN(got) || math.IsInf(got, 0) || math.Abs(got-c.want) > 1e-9)) {
				t.Fatalf("errors = %v (known %v), want %v (known %v)", got, known, c.want, c.known)
			}
		})
	}
}

// A trial whose every answer failed has no CPU per request: the failures'
// cost is not the cost of the work asked for.
func TestCPUPerRequestNeedsASuccess(t *testing.T) {
	cpu := func(requests, errors int64) Trial {
		return Trial{Load: LoadStats{Requests: requests, Errors: errors},
			Server:   Usage{CPUSeconds: 1, CPUPerRequestUs: 200},
			Database: Usage{CPUSeconds: 1, CPUPerRequestUs: 100}}
	}
	for _, name := range []string{"server_cpu", "db_cpu", "cpu"} {
		m, _ := MetricByName(name)
		if _, known := m.Of(cpu(100, 100)); known {
			t.Errorf("%s known for a trial whose 100 answers all failed", name)
		}
		if _, known := m.Of(cpu(100, 99)); !known {
			t.Errorf("%s unknown for a trial with one success", name)
		}
	}
}

// TestJWTCacheMetrics: the JWT cache's hit rate and evictions per lookup
// are known only for a trial whose target exposed the counters and looked
// a token up; a PostgREST 13 trial (no counters) has neither, not zero.
func TestJWTCacheMetrics(t *testing.T) {
	hits, ok1 := MetricByName("jwt_cache_hit_rate")
	ev, ok2 := MetricByName("jwt_cache_evictions")
	if !ok1 || !ok2 {
		t.Fatal("no JWT cache metrics")
	}
	for _, c := range []struct {
		name             string
		cache            *JWTCacheStats
		wantHits, wantEv float64
		known            bool
	}{
		{"PostgREST 13: no counters", nil, 0, 0, false},
		{"no token sent", &JWTCacheStats{}, 0, 0, false},
		{"10 tokens, 400 lookups", &JWTCacheStats{Requests: 400, Hits: 390}, 97.5, 0, true},
		{"a new token per request, cache of 100", &JWTCacheStats{Requests: 400, Hits: 0, Evictions: 300}, 0, 0.75, true},
	} {
		tr := Trial{DB: DBStats{JWTCache: c.cache}}
		h, kh := hits.Of(tr)
		e, ke := ev.Of(tr)
		if kh != c.known || ke != c.known || (c.known && (h != c.wantHits || e != c.wantEv)) {
			t.Errorf("%s: hit rate %v (known %v), evictions %v (known %v); want %v, %v (known %v)", c.name, h, kh, e, ke, c.wantHits, c.wantEv, c.known)
		}
	}
}

// The headline follows the load model: throughput where the server sets
// the rate (closed, search), latency p99 where the generator does (open:
// its throughput is the rate asked), CPU per request in efficiency mode;
// a headline the file names wins over all of them.
func TestPrimaryMetric(t *testing.T) {
	for _, c := range []struct {
		model    Model
		headline string
		want     string
	}{
		{ModelClosed, "", "rate"},
		{ModelSearch, "", "rate"},
		{ModelOpen, "", "p99"},
		{ModelEfficiency, "", "cpu"},
		{ModelOpen, "server_cpu", "server_cpu"},
		{ModelClosed, "peak_rss", "peak_rss"},
		{ModelEfficiency, "p50", "p50"},
	} {
		e := &Experiment{Load: Load{Model: c.model}, Trials: Trials{Headline: c.headline}}
		if got := PrimaryMetric(e).Name; got != c.want {
			t.Errorf("%s, headline %q: primary %q, want %q", c.model, c.headline, got, c.want)
		}
	}
	if got := PrimaryMetric(nil).Name; got != "rate" {
		t.Errorf("no experiment: primary %q, want rate", got)
	}
	for _, name := range HeadlineNames() {
		if m, _ := MetricByName(name); m.Better == 0 {
			t.Errorf("headline %q has no direction", name)
		}
	}
}
