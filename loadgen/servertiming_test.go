package loadgen

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

func TestParseServerTiming(t *testing.T) {
	var us [NumPhases]int64
	if !parseServerTiming([]byte("jwt;dur=0.0, parse;dur=0.1, plan;dur=12.25, transaction;dur=0.8, response;dur=3"), &us) {
		t.Fatal("PostgREST's header not parsed")
	}
	if us != [NumPhases]int64{0, 100, 12250, 800, 3000} {
		t.Errorf("µs %v", us)
	}
	for _, bad := range []string{"jwt;dur=0.0", "jwt;dur=x, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0",
		"jwt, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0", "jwt;dur=-1, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0"} {
		if parseServerTiming([]byte(bad), &us) {
			t.Errorf("%q accepted", bad)
		}
	}
	// other metrics and parameters are skipped
	if !parseServerTiming([]byte(`cache;desc="x", jwt;desc=a;dur=1, parse;dur=0, plan;dur=0, transaction;dur=0, response;dur=0`), &us) || us[0] != 1000 {
		t.Errorf("with extra metrics: %v", us)
	}
	h := []byte("jwt;dur=0.0, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0")
	if a := testing.AllocsPerRun(1000, func() { parseServerTiming(h, &us) }); a != 0 {
		t.Errorf("%.1f allocations per header", a)
	}
}

// TestRunAggregatesServerTiming runs the generator against a server that
// answers with a Server-Timing header whose transaction phase alternates
// between 1.0 and 3.0 ms.
func TestRunAggregatesServerTiming(t *testing.T) {
	var n atomic.Int64
	url := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		tx := "1.0"
		if n.Add(1)%2 == 0 {
			tx = "3.0"
		}
		w.Header().Set("Server-Timing", "jwt;dur=0.1, parse;dur=0.2, plan;dur=0.3, transaction;dur="+tx+", response;dur=0.0")
	}).URL
	cfg := Config{Target: Target{URL: url}, Mix: simpleMix("/"), Closed: &Closed{Connections: 1},
		Duration: 10 * time.Second, MaxRequests: 400, Seed: 1, ServerTiming: true}
	res, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	if s.Timed != s.Requests || len(s.Phases) != NumPhases {
		t.Fatalf("%d timed of %d, phases %+v", s.Timed, s.Requests, s.Phases)
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	tx := s.Phases[3]
	if tx.Name != "transaction" || ms(tx.Mean) < 1.9 || ms(tx.Mean) > 2.1 || ms(tx.P50) < 0.99 || ms(tx.P50) > 1.01 || ms(tx.P99) < 2.99 || ms(tx.P99) > 3.01 {
		t.Errorf("transaction %+v, want mean 2 ms, p50 1 ms, p99 3 ms", tx)
	}
	if p := s.Phases[2]; p.Name != "plan" || ms(p.Mean) < 0.299 || ms(p.Mean) > 0.301 {
		t.Errorf("plan %+v", p)
	}
	if tot := ms(s.ServerTotal.Mean); tot < 2.5 || tot > 2.7 {
		t.Errorf("total mean %.3f ms, want 2.6", tot)
	}
	cfg.ServerTiming = false
	if res, err := Run(context.Background(), cfg, nil); err != nil || res.Summary.Phases != nil || res.Summary.Timed != 0 {
		t.Errorf("ServerTiming off: %v %+v", err, res.Summary.Phases)
	}
}

// BenchmarkParseServerTiming is the generator's cost of reading one
// answer's Server-Timing header.
func BenchmarkParseServerTiming(b *testing.B) {
	h := []byte("jwt;dur=0.0, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0")
	var us [NumPhases]int64
	b.ReportAllocs()
	for b.Loop() {
		parseServerTiming(h, &us)
	}
}

// Header names are not normalized by the parser: Server-Timing is found in
// any spelling, and a server that sends none is searched only at first.
func TestPeekServerTimingIgnoresCase(t *testing.T) {
	answer := func(header string) *fasthttp.Response {
		var resp fasthttp.Response
		resp.Header.DisableNormalizing()
		raw := "HTTP/1.1 200 OK\r\n" + header + "Content-Length: 0\r\n\r\n"
		if err := resp.Read(bufio.NewReader(strings.NewReader(raw))); err != nil {
			t.Fatal(err)
		}
		return &resp
	}
	for _, name := range []string{"Server-Timing", "server-timing", "SERVER-TIMING"} {
		var w worker
		for i := range 3 {
			if got := string(w.peekServerTiming(&answer(name + ": plan;dur=0.3\r\n").Header)); got != "plan;dur=0.3" {
				t.Errorf("%s, answer %d: got %q", name, i, got)
			}
		}
		if string(w.stName) != name {
			t.Errorf("%s: learnt %q", name, w.stName)
		}
	}
	var w worker
	for range 2 * maxTimingSearches {
		if v := w.peekServerTiming(&answer("").Header); v != nil {
			t.Errorf("no header: got %q", v)
		}
	}
	if w.stSearches != maxTimingSearches {
		t.Errorf("searched %d answers without the header, want %d", w.stSearches, maxTimingSearches)
	}
	if got := string(w.peekServerTiming(&answer("Server-Timing: a;dur=1\r\n").Header)); got != "a;dur=1" {
		t.Errorf("after the searches the usual spelling is still found: got %q", got)
	}
}
