package load

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func sampleResult() *Result {
	return &Result{Scenario: "GETSingle", Model: "open", TargetRate: 1000, Connections: 64,
		Requests: 30000, Errors: 30, Dropped: 3, Duration: 30 * time.Second, Rate: 1000, ErrorRate: 0.001, DroppedRate: 0.0001,
		Mean: 2 * time.Millisecond, ServiceMean: 2 * time.Millisecond,
		P50: 2 * time.Millisecond, P99: 3 * time.Millisecond, Max: 3 * time.Millisecond, BytesIn: 12_345_678, BytesOut: 2_000_000,
		Status: map[int]int64{200: 29970, 503: 30}, ErrorKinds: map[string]int64{"status": 30}, MaxInFlight: 12,
		Series: []Second{{At: time.Second, Requests: 1000, P99: 3 * time.Millisecond}}}
}

func TestJSONReport(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sampleResult(), true); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"requests", "rate", "errors", "dropped", "latency_ms", "bytes_received", "bytes_sent", "series", "status"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b.String())
		}
	}
	if lat := m["latency_ms"].(map[string]any); lat["p99"] != 3.0 || lat["p50"] != 2.0 {
		t.Errorf("latency_ms %v", lat)
	}
	if m["requests"] != 30000.0 || m["bytes_received"] != 12345678.0 {
		t.Errorf("values: %v", m)
	}
}

func TestK6TableAndText(t *testing.T) {
	var b bytes.Buffer
	if err := K6Table(&b, []*Result{sampleResult()}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"http_reqs", "iterations", "http_req_duration", "data_received", "http_req_failed",
		"in flight, max (not VUs)", "in-flight bound", "dropped_iterations",
		"GETSingle", "30000 1000/s", "avg=2.00ms", "12.3 MB", "2.0 MB", "0.10% 30 of 30000"} {
		if !strings.Contains(out, want) {
			t.Errorf("k6 table lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	Text(&b, sampleResult())
	for _, want := range []string{"open, 1000 req/s asked", "p99 3.00ms", "503:30", "status:30", "dropped 3"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestSearchText(t *testing.T) {
	var b bytes.Buffer
	sr := &Search{Best: 800, Curve: []Step{{Asked: 800, Pass: true, Result: *sampleResult()},
		{Asked: 1600, Why: "p99 60ms > 50ms", Result: *sampleResult()}}}
	if err := SearchText(&b, sr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"asked req/s", "800", "1600", "p99 60ms > 50ms", "0.10%", "highest rate meeting the limit: 800 req/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("search text lacks %q:\n%s", want, b.String())
		}
	}
}
