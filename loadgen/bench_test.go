package loadgen

import (
	"context"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// fastServer is a trivial fasthttp server on loopback (cheaper than
// net/http, so that benchmarks measure the generator).
func fastServer(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	body := []byte(strings.Repeat("x", 200))
	timing := []byte("jwt;dur=0.0, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0")
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		ctx.Response.Header.SetBytesV("Server-Timing", timing) // as PostgREST with server-timing-enabled
		ctx.SetBody(body)
	}}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Shutdown() })
	return "http://" + ln.Addr().String()
}

// BenchmarkClosedLoop sends b.N requests over 50 connections: ns/op is the
// time per request at full speed (client and server share the machine),
// allocs/op shows that the request path does not allocate.
func BenchmarkClosedLoop(b *testing.B) {
	url := fastServer(b)
	b.ReportAllocs()
	b.ResetTimer()
	res, err := Run(context.Background(), Config{Target: Target{URL: url}, Mix: simpleMix("/"),
		Closed: &Closed{Connections: 50}, Duration: 5 * time.Minute, MaxRequests: int64(b.N), Seed: 1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if res.Summary.Errors != 0 {
		b.Fatalf("errors: %v", res.Summary.ErrorKinds)
	}
	b.ReportMetric(res.Summary.Rate, "req/s")
}

// BenchmarkLongOpenRunRSS runs the open model for LOADGEN_SOAK (default
// 10s) at LOADGEN_SOAK_RATE req/s (default 5000) and samples the process's
// RSS every second: it must stay under 100 MB and flat (growth after the
// first second under 10 MB). Run it with -benchtime=1x, e.g.
//
//	LOADGEN_SOAK=10m go test -run '^$' -bench LongOpenRunRSS -benchtime=1x ./loadgen
func BenchmarkLongOpenRunRSS(b *testing.B) {
	dur := 10 * time.Second
	if v := os.Getenv("LOADGEN_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("LOADGEN_SOAK=%q: %v", v, err)
		}
		dur = d
	}
	rate := 5000.0
	if v := os.Getenv("LOADGEN_SOAK_RATE"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil {
			b.Fatalf("LOADGEN_SOAK_RATE=%q: %v", v, err)
		}
		rate = r
	}
	url := fastServer(b)
	runtime.GC()
	var samples []float64
	res, err := Run(context.Background(), Config{Target: Target{URL: url}, Mix: simpleMix("/artist?id=eq.{rand 1 275}"),
		Open: &Open{Rate: rate}, Duration: dur, Seed: 1, Timeout: 5 * time.Second},
		func(Progress) { samples = append(samples, rssMB(b)) })
	if err != nil {
		b.Fatal(err)
	}
	if len(samples) < 2 {
		b.Fatalf("only %d RSS samples", len(samples))
	}
	first, peak := samples[0], 0.0
	for _, s := range samples {
		peak = max(peak, s)
	}
	last := samples[len(samples)-1]
	b.ReportMetric(first, "rss-first-MB")
	b.ReportMetric(peak, "rss-max-MB")
	b.ReportMetric(last-first, "rss-growth-MB")
	b.ReportMetric(res.Summary.Rate, "req/s")
	b.ReportMetric(float64(res.Summary.Dropped), "dropped")
	b.Logf("%v at %v req/s: %d requests, RSS first %.1f MB, max %.1f MB, last %.1f MB (%d samples)",
		dur, rate, res.Summary.Requests, first, peak, last, len(samples))
	if peak > 100 {
		b.Errorf("RSS peaked at %.1f MB (limit 100 MB)", peak)
	}
	if last-first > 10 {
		b.Errorf("RSS grew %.1f MB over the run (not flat)", last-first)
	}
}

// rssMB reads VmRSS of this process.
func rssMB(tb testing.TB) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	tb.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// postgrestAnswer is real PostgREST 13.0.8's answer to GETSingle.
const postgrestAnswer = "HTTP/1.1 200 OK\r\nDate: Thu, 03 Dec 2026 08:01:47 GMT\r\nServer: postgrest/13.0.8\r\n" +
	"Content-Range: 0-0/*\r\nContent-Location: /artist?artist_id=eq.3&select=%2A\r\nContent-Length: 44\r\n" +
	"Content-Type: application/json; charset=utf-8\r\n\r\n" + `[{"artist_id":3,"name":"Delacroix Brennan"}]`

// BenchmarkParse parses PostgREST's answer from bytes already read, as the
// event loop does after a read: the generator's user-space cost per answer
// that does not depend on the network.
func BenchmarkParse(b *testing.B) {
	r, err := newRun(Config{Target: Target{URL: "http://127.0.0.1:1"}, Mix: simpleMix("/"),
		Closed: &Closed{Connections: 1}, Duration: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	c := r.newConns()[0]
	c.t, _ = c.next()
	b.ReportAllocs()
	for b.Loop() {
		c.resetAnswer()
		c.buf = append(c.buf, postgrestAnswer...)
		done, status, err := c.parse()
		if !done || err != nil || status != 200 {
			b.Fatalf("parse: done %v status %d err %v", done, status, err)
		}
	}
}
