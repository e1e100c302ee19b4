package loadgen

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestClosedModel(t *testing.T) {
	s := startServer(t, okHandler)
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/x"), Closed: &Closed{Connections: 4},
		Duration: 500 * time.Millisecond, Warmup: 200 * time.Millisecond, MaxRequests: 20000})
	sum := res.Summary
	if sum.Requests < 100 || sum.Errors != 0 || sum.Status[200] != sum.Requests {
		t.Fatalf("closed run: %+v", sum)
	}
	if s.hits.Load() <= sum.Requests {
		t.Errorf("warm-up requests not sent or not discarded: server saw %d, measured %d", s.hits.Load(), sum.Requests)
	}
	if sum.BytesIn < sum.Requests*200 || sum.BytesOut < sum.Requests*20 {
		t.Errorf("bytes in %d out %d for %d requests", sum.BytesIn, sum.BytesOut, sum.Requests)
	}
	if !(sum.Min > 0 && sum.Min <= sum.P50 && sum.P50 <= sum.P99 && sum.P99 <= sum.Max) {
		t.Errorf("latency order broken: %+v", sum)
	}
	svc := []time.Duration{sum.ServiceMin, sum.ServiceMean, sum.ServiceP50, sum.ServiceP90, sum.ServiceP95, sum.ServiceP99, sum.ServiceP999, sum.ServiceMax}
	lat := []time.Duration{sum.Min, sum.Mean, sum.P50, sum.P90, sum.P95, sum.P99, sum.P999, sum.Max}
	if !slices.Equal(svc, lat) {
		t.Errorf("closed model: service time %v should be the latency %v (min mean p50 p90 p95 p99 p99.9 max)", svc, lat)
	}
	if sum.Model != "closed" || sum.MaxInFlight != 4 || res.Latency.TotalCount() != sum.Requests {
		t.Errorf("model %s in flight %d hist %d", sum.Model, sum.MaxInFlight, res.Latency.TotalCount())
	}
}

func TestClosedModelThinkTimeAndMaxRequests(t *testing.T) {
	s := startServer(t, okHandler)
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Closed: &Closed{Connections: 2, Think: 20 * time.Millisecond},
		Duration: 500 * time.Millisecond})
	// 2 connections, one request per ~20ms each: about 50 requests.
	if n := res.Summary.Requests; n < 30 || n > 55 {
		t.Errorf("think time: %d requests in 0.5s with 2 connections x 20ms think, want ~50", n)
	}
	s.hits.Store(0)
	res = run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Closed: &Closed{Connections: 3},
		Duration: 10 * time.Second, MaxRequests: 300})
	if n := res.Summary.Requests; n != 300 || res.Summary.Duration > 5*time.Second || s.hits.Load() != 300 {
		t.Errorf("MaxRequests 300: got %d requests in %v, server saw %d", n, res.Summary.Duration, s.hits.Load())
	}
}

func TestOpenModelHoldsRate(t *testing.T) {
	s := startServer(t, okHandler)
	for _, rate := range []float64{100, 2000} {
		res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: rate, MaxInFlight: 500}, // a shared machine stalls: room for 250 ms at 2000 req/s
			Duration: 2 * time.Second, Warmup: 200 * time.Millisecond})
		sum := res.Summary
		want := rate * 2
		if math.Abs(float64(sum.Requests+sum.Dropped)-want) > want*0.01 {
			t.Errorf("rate %v: scheduled %d+%d, want %v", rate, sum.Requests, sum.Dropped, want)
		}
		if math.Abs(sum.Rate-rate) > rate*0.01 || sum.Dropped != 0 || sum.Errors != 0 {
			t.Errorf("rate %v: got %.1f req/s, dropped %d, errors %d", rate, sum.Rate, sum.Dropped, sum.Errors)
		}
		if len(res.Series) != 2 {
			t.Errorf("rate %v: %d seconds in the series, want 2", rate, len(res.Series))
		}
		// The series counts answers by arrival, so a stall of the shared
		// machine moves some into the next second; the sum is exact.
		var sum2 int64
		for _, sec := range res.Series {
			sum2 += sec.Requests
			if math.Abs(float64(sec.Requests)-rate) > rate*0.25+2 {
				t.Errorf("rate %v: second %v had %d requests", rate, sec.At, sec.Requests)
			}
		}
		if sum2 != sum.Requests {
			t.Errorf("rate %v: series sums to %d requests, summary says %d", rate, sum2, sum.Requests)
		}
	}
}

// The open model sends each request on the connection that became free
// last, so the load stays on the few connections it needs (Little's law:
// rate x latency, well under one at 1,000 req/s of sub-millisecond answers
// here); spread round robin it would use all 100.
func TestOpenModelKeepsLoadOnFewConnections(t *testing.T) {
	var mu sync.Mutex
	used := map[string]int{}
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		used[r.RemoteAddr]++
		mu.Unlock()
		okHandler(w, r)
	})
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 1000, MaxInFlight: 100},
		Duration: time.Second, Threads: 1})
	mu.Lock()
	defer mu.Unlock()
	// A stall of the shared machine can raise the requests in flight (to
	// all 100 on a loaded machine); the stack never uses more connections
	// than were in flight at once, while round robin would use all 100
	// whatever the concurrency.
	if sum := res.Summary; sum.Requests != 1000 || len(used) > sum.MaxInFlight {
		t.Errorf("1,000 req/s on 100 slots: %d requests on %d connections, max in flight %d; want 1000 on at most that many",
			sum.Requests, len(used), sum.MaxInFlight)
	}
}

// Two event loops (two generator threads) share the schedule: together
// they send every request once, at the asked rate.
func TestOpenModelOnTwoLoops(t *testing.T) {
	s := startServer(t, okHandler)
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 1000, MaxInFlight: 200},
		Duration: time.Second, Threads: 2})
	if sum := res.Summary; sum.Requests+sum.Dropped != 1000 || sum.Errors != 0 {
		t.Errorf("two loops at 1,000 req/s for 1 s: %d sent, %d dropped, %d errors; want 1000 scheduled", sum.Requests, sum.Dropped, sum.Errors)
	}
}

// Without waiting (MaxLate < 0, as in a search step) a request due while
// every slot is busy is dropped at once.
func TestOpenModelDropsBeyondInFlightBound(t *testing.T) {
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		okHandler(w, r)
	})
	// 4 slots x 20 req/s each = 80 req/s possible; 400 asked.
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 400, MaxInFlight: 4, MaxLate: -1},
		Duration: time.Second})
	sum := res.Summary
	if sum.MaxInFlight != 4 || sum.Dropped < 250 || sum.Requests > 100 || sum.Requests+sum.Dropped < 395 {
		t.Errorf("bound 4 at 400 req/s, 50ms service: %d done, %d dropped, max in flight %d", sum.Requests, sum.Dropped, sum.MaxInFlight)
	}
}

// A server that stalls once, for 150 ms, with the in-flight bound at 4:
// requests due meanwhile wait for a connection (default MaxLate, 1 s) and
// leave as the stall ends, none dropped, their latency counting from when
// they were due and their send delay from when a connection came free
// (the wait is the server's, not the generator's). With MaxLate -1 they
// are dropped; with MaxLate 50 ms those that would leave later are.
func TestOpenModelWaitsForAConnection(t *testing.T) {
	for _, tc := range []struct {
		name    string
		maxLate time.Duration
	}{{"default", 0}, {"none", -1}, {"50ms", 50 * time.Millisecond}} {
		t.Run(tc.name, func(t *testing.T) {
			var once sync.Once
			var t0 time.Time
			s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
				once.Do(func() { t0 = time.Now() })
				if since := time.Since(t0); since >= 300*time.Millisecond && since < 450*time.Millisecond {
					time.Sleep(450*time.Millisecond - since)
				}
				okHandler(w, r)
			})
			res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"),
				Open: &Open{Rate: 400, MaxInFlight: 4, MaxLate: tc.maxLate}, Duration: time.Second})
			sum := res.Summary
			t.Logf("%d requests, %d waited, %d dropped; p99 %v, send delay p99 %v, max in flight %d",
				sum.Requests, sum.Waited, sum.Dropped, sum.P99, sum.SendDelayP99, sum.MaxInFlight)
			if sum.Requests+sum.Dropped != 400 || sum.Errors != 0 || sum.MaxInFlight > 4 {
				t.Fatalf("%d sent + %d dropped, %d errors, max in flight %d: want 400 scheduled on at most 4 connections",
					sum.Requests, sum.Dropped, sum.Errors, sum.MaxInFlight)
			}
			// 60 requests fall due in the stall, 4 of them on its connections.
			switch tc.name {
			case "default":
				if sum.Dropped != 0 || sum.Waited < 30 {
					t.Errorf("%d dropped, %d waited: want none dropped, the stall's requests waiting", sum.Dropped, sum.Waited)
				}
				if sum.P99 < 75*time.Millisecond || sum.SendDelayP99 >= sum.P99/2 {
					t.Errorf("p99 %v, send delay p99 %v: want the wait in the latency, not in the generator's send delay", sum.P99, sum.SendDelayP99)
				}
			case "none":
				if sum.Waited != 0 || sum.Dropped < 30 {
					t.Errorf("%d dropped, %d waited: want the stall's requests dropped", sum.Dropped, sum.Waited)
				}
			case "50ms":
				if sum.Waited < 10 || sum.Dropped < 10 {
					t.Errorf("%d dropped, %d waited: want the first 50 ms of the stall waiting, the rest dropped", sum.Dropped, sum.Waited)
				}
			}
		})
	}
}

// A server that stalls every request arriving in the first 200 ms of each
// second: the open model must see it (p99 >= 150 ms); the closed model
// hides it (coordinated omission), and the test shows both.
func TestStallVisibleInOpenHiddenInClosed(t *testing.T) {
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		if off := time.Duration(now.UnixNano() % 1e9); off < 200*time.Millisecond {
			time.Sleep(200*time.Millisecond - off)
		}
		okHandler(w, r)
	})
	open := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 500, MaxInFlight: 300},
		Duration: 2 * time.Second})
	closed := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Closed: &Closed{Connections: 10, Think: time.Millisecond},
		Duration: 2 * time.Second, MaxRequests: 100000})
	t.Logf("open: p50 %v p99 %v service p99 %v send delay p99 %v dropped %d; closed: p50 %v p99 %v, %d requests",
		open.Summary.P50, open.Summary.P99, open.Summary.ServiceP99, open.Summary.SendDelayP99, open.Summary.Dropped, closed.Summary.P50, closed.Summary.P99, closed.Summary.Requests)
	if open.Summary.P99 < 150*time.Millisecond || open.Summary.Dropped != 0 {
		t.Errorf("open model p99 %v (dropped %d): the stall is hidden", open.Summary.P99, open.Summary.Dropped)
	}
	// The generator's own lateness is judged against what it measured, not
	// in milliseconds: under a whole -race suite on two cores it reached
	// 125 ms next to a p99 of 393 ms (a fixed 100 ms bound failed there).
	if open.Summary.SendDelayP99 >= open.Summary.P99/2 {
		t.Errorf("open model send delay p99 %v: the generator, not the server, looks late", open.Summary.SendDelayP99)
	}
	// The closed model sends nothing while its 10 connections wait: each
	// stall delays 10 requests however long it lasts, so the stalled share
	// is 20/N (1.2 % at the 1,649 requests a busy machine managed, enough
	// to reach p99) where the open model's is the stall's 20 % of the time.
	// p90 shows the omission whatever the machine's speed.
	if closed.Summary.P90 >= 150*time.Millisecond || closed.Summary.P90 >= open.Summary.P90 {
		t.Errorf("closed model p90 %v (open p90 %v): expected coordinated omission to hide the stall", closed.Summary.P90, open.Summary.P90)
	}
}

// The server going away mid-run: errors are counted, the run ends on time,
// and no goroutine or connection is left behind.
func TestServerGoesAwayMidRun(t *testing.T) {
	for _, model := range []string{"open", "closed"} {
		t.Run(model, func(t *testing.T) {
			g0, fd0 := runtime.NumGoroutine(), openFDs(t)
			s := startServer(t, okHandler)
			cfg := Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Duration: 1500 * time.Millisecond, Timeout: time.Second}
			if model == "open" {
				cfg.Open = &Open{Rate: 400, MaxInFlight: 16}
			} else {
				cfg.Closed = &Closed{Connections: 8, Think: time.Millisecond}
				cfg.MaxRequests = 100000
			}
			time.AfterFunc(500*time.Millisecond, s.kill)
			t0 := time.Now()
			res := run(t, cfg)
			el := time.Since(t0)
			sum := res.Summary
			t.Logf("%s: %d requests, %d errors %v, took %v", model, sum.Requests, sum.Errors, sum.ErrorKinds, el)
			if sum.Errors == 0 || sum.ErrorKinds["connect"] == 0 || sum.Requests-sum.Errors < 50 {
				t.Errorf("want successes then counted connect errors: %+v", sum)
			}
			if model == "open" && (sum.Requests+sum.Dropped < 590 || sum.Requests+sum.Dropped > 610) {
				t.Errorf("open: %d+%d scheduled requests accounted, want 600", sum.Requests, sum.Dropped)
			}
			// The open run's last request is due at 1.4975 s and may leave up
			// to a millisecond early (sendAhead); failing at once, it ends
			// the run there.
			if el < 1496*time.Millisecond || el > 2500*time.Millisecond {
				t.Errorf("run took %v, want the scheduled 1.5s", el)
			}
			if g := settle(g0, runtime.NumGoroutine); g > g0 {
				t.Errorf("goroutines %d -> %d", g0, g)
			}
			if fd := settle(fd0, func() int { return openFDs(t) }); fd > fd0 {
				t.Errorf("open fds %d -> %d", fd0, fd)
			}
		})
	}
}

func TestUnreachableTargetIsAnError(t *testing.T) {
	s := startServer(t, okHandler)
	url := s.URL
	s.kill()
	_, err := Run(context.Background(), Config{Target: Target{URL: url}, Mix: simpleMix("/"), Closed: &Closed{Connections: 2},
		Duration: time.Second}, nil)
	if err == nil || !strings.Contains(err.Error(), "connect") {
		t.Fatalf("got %v", err)
	}
}

func TestUnixSocketAndMix(t *testing.T) {
	var mu sync.Mutex
	paths := map[string]int{}
	s := startUnixServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.URL.Path]++
		mu.Unlock()
		if r.Method == "POST" {
			w.WriteHeader(201)
		}
		w.Write([]byte("ok"))
	})
	a, _ := Builtin("RPCSimple")
	b, _ := Builtin("POSTSingle")
	res := run(t, Config{Target: Target{URL: s.URL, UnixSocket: s.Sock}, Mix: []Weighted{{a, 3}, {b, 1}},
		Closed: &Closed{Connections: 2}, Duration: 300 * time.Millisecond, MaxRequests: 4000})
	sum := res.Summary
	mu.Lock()
	defer mu.Unlock()
	if sum.Errors != 0 || sum.Status[200] == 0 || sum.Status[201] == 0 || sum.Scenario != "RPCSimple+POSTSingle" {
		t.Fatalf("unix socket mix: %+v", sum)
	}
	if paths["/rpc/add_them"] <= paths["/employee"] {
		t.Errorf("weights 3:1 gave %v", paths)
	}
}

func TestMixFollowsWeights(t *testing.T) {
	a, _ := Builtin("RPCSimple")
	b, _ := Builtin("POSTSingle")
	r, err := newRun(Config{Target: Target{URL: "http://127.0.0.1:1"}, Mix: []Weighted{{a, 3}, {b, 1}}, Closed: &Closed{Connections: 1}})
	if err != nil {
		t.Fatal(err)
	}
	count := func(seed int64) (n [2]int, seq []bool) {
		w := &worker{r: r, rng: rand.New(rand.NewPCG(uint64(seed), 0))}
		for i := 0; i < 100000; i++ {
			tm, _ := w.next()
			post := tm == r.mix.scens[1][0]
			if post {
				n[1]++
			} else {
				n[0]++
			}
			if i < 100 {
				seq = append(seq, post)
			}
		}
		return n, seq
	}
	n, s1 := count(5)
	if ratio := float64(n[0]) / float64(n[1]); ratio < 2.9 || ratio > 3.1 {
		t.Errorf("weights 3:1 gave %v", n)
	}
	if _, s2 := count(5); !slices.Equal(s1, s2) {
		t.Error("same seed, different sequence")
	}
}

func TestUnexpectedStatusIsAnError(t *testing.T) {
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404) })
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Closed: &Closed{Connections: 1},
		Duration: 200 * time.Millisecond, MaxRequests: 100})
	if res.Summary.Errors != res.Summary.Requests || res.Summary.ErrorKinds["status"] != res.Summary.Requests || res.Summary.Status[404] == 0 {
		t.Errorf("404s: %+v", res.Summary)
	}
}

func TestCancelEndsEarly(t *testing.T) {
	s := startServer(t, okHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var progress int
	t0 := time.Now()
	res, err := Run(ctx, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 200},
		Duration: time.Minute}, func(Progress) { progress++ })
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second || res.Summary.Duration > time.Second || res.Summary.Requests < 20 {
		t.Errorf("cancel: took %v, summary %+v", el, res.Summary)
	}
	if progress == 0 {
		t.Error("no progress call")
	}
}

// Below saturation the open model sleeps until its next send and reads
// the answers that came in meanwhile then; each still ends when its last
// bytes arrived (the kernel's receive stamp), not when the loop read it.
// At 50 req/s the loop sleeps maxWait (5 ms) at a time, so an answer
// timed by its read would take about that long; the closed model on the
// same server gives the latency the answers really have. The server is
// a process of its own, as real targets are.
func TestOpenModelTimesAnswersByArrival(t *testing.T) {
	url := childServer(t)
	closed := run(t, Config{Target: Target{URL: url}, Mix: simpleMix("/"), Closed: &Closed{Connections: 1, Think: 20 * time.Millisecond},
		Duration: time.Second})
	r, err := newRun(Config{Target: Target{URL: url}, Mix: simpleMix("/"), Open: &Open{Rate: 50, MaxInFlight: 10},
		Duration: 2 * time.Second, Timeout: 5 * time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	open := res.Summary
	t.Logf("closed p50 %v, open p50 %v, %d sleeps for %d requests", closed.Summary.P50, open.P50, r.sleeps.Load(), open.Requests)
	if r.sleeps.Load() < open.Requests/2 {
		t.Fatalf("%d sleeps for %d requests: the loop did not leave answers waiting", r.sleeps.Load(), open.Requests)
	}
	if limit := closed.Summary.P50 + time.Duration(maxWait)/2; open.P50 > limit {
		t.Errorf("open p50 %v, closed %v: answers were timed by their read, not their arrival (want <= %v)", open.P50, closed.Summary.P50, limit)
	}
}
