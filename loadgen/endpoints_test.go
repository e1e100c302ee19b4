package loadgen

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// A targets file's lines are measured apart, per status: the rows add up
// to the run's totals, in the file's order, and a slow line is slower.
func TestByRequestRowsAddUp(t *testing.T) {
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			time.Sleep(3 * time.Millisecond)
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
		}
		w.Write([]byte("ok"))
	})
	src := "GET http://postgrest/slow\n\nGET http://postgrest/fast?a=1\n\n# a comment\nHEAD http://postgrest/missing\n\nGET http://postgrest/slow\n"
	reqs, err := ParseTargets("t.http", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: []Weighted{{Scenario: Scenario{Name: "t", Requests: reqs}, Weight: 1}},
		Closed: &Closed{Connections: 3}, Duration: 600 * time.Millisecond, Warmup: 100 * time.Millisecond,
		MaxRequests: 100000, ByRequest: true})
	sum := res.Summary
	if len(sum.Endpoints) != 3 {
		t.Fatalf("want 3 rows (one per request, one status each; the line given twice shares its row), got %+v", sum.Endpoints)
	}
	var n, errs int64
	for _, e := range sum.Endpoints {
		n += e.Requests
		errs += e.Errors
		if e.Requests == 0 || !(e.Min > 0 && e.Min <= e.P50 && e.P50 <= e.P90 && e.P90 <= e.P95 && e.P95 <= e.P99 && e.P99 <= e.Max) {
			t.Errorf("row %+v: no requests or latency order broken", e)
		}
	}
	if n != sum.Requests || errs != sum.Errors {
		t.Errorf("rows count %d requests (%d errors), the run %d (%d)", n, errs, sum.Requests, sum.Errors)
	}
	want := []struct {
		name string
		line int
	}{{"200 GET /slow", 1}, {"200 GET /fast?a=1", 3}, {"404 HEAD /missing", 6}}
	for i, w := range want {
		if e := sum.Endpoints[i]; e.Name != w.name || e.Line != w.line || e.Status != sum.Endpoints[i].Status {
			t.Errorf("row %d: %q line %d, want %q line %d", i, e.Name, e.Line, w.name, w.line)
		}
	}
	if slow, fast := sum.Endpoints[0], sum.Endpoints[1]; slow.P50 <= fast.P50 || slow.P50 < 3*time.Millisecond {
		t.Errorf("slow line P50 %v, fast line %v", slow.P50, fast.P50)
	}
}

// Without ByRequest nothing is kept apart; a line answered with two
// statuses makes two rows, by status.
func TestByRequestTwoStatuses(t *testing.T) {
	var n atomic.Int64
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%3 == 0 {
			w.WriteHeader(http.StatusConflict)
		}
	})
	mix := []Weighted{{Scenario: Scenario{Name: "t", Requests: []Request{{Method: "GET", Path: "/x", Expect: ExpectNoServerError}}}, Weight: 1}}
	cfg := Config{Target: Target{URL: s.URL}, Mix: mix, Closed: &Closed{Connections: 1}, Duration: 300 * time.Millisecond, MaxRequests: 100000}
	if res := run(t, cfg); res.Summary.Endpoints != nil {
		t.Fatalf("rows without ByRequest: %+v", res.Summary.Endpoints)
	}
	cfg.ByRequest = true
	sum := run(t, cfg).Summary
	if sum.Status[200] == 0 || sum.Status[409] == 0 {
		t.Fatalf("the server answers 200 and 409, the run saw %v", sum.Status)
	}
	if len(sum.Endpoints) != 2 || sum.Endpoints[0].Name != "200 GET /x" || sum.Endpoints[1].Name != "409 GET /x" ||
		sum.Endpoints[0].Requests != sum.Status[200] || sum.Endpoints[1].Requests != sum.Status[409] {
		t.Errorf("rows %+v for statuses %v", sum.Endpoints, sum.Status)
	}
}
