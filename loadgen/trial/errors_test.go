package trial

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// errorServer is a real HTTP server on loopback whose handler h is given
// the answer's number (from 1); kill closes it at once, after which every
// connection is refused.
type errorServer struct {
	url  string
	srv  *http.Server
	ln   net.Listener
	hits atomic.Int64
	once sync.Once
}

func startErrorServer(t *testing.T, h func(w http.ResponseWriter, n int64)) *errorServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &errorServer{url: "http://" + ln.Addr().String(), ln: ln}
	s.srv = &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, s.hits.Add(1))
	})}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			t.Errorf("serve: %v", err)
		}
	}()
	t.Cleanup(s.kill)
	return s
}

func (s *errorServer) kill() {
	s.once.Do(func() {
		s.srv.Close()
		s.ln.Close()
	})
}

// oneSecond is a trial of RPCSimple (its GET expects 200) with 4
// connections for a second.
func oneSecond(t *testing.T, url string) lab.LoadStats {
	t.Helper()
	l := &Loader{Target: loadgen.Target{URL: url}}
	out, err := l.Load(context.Background(), lab.LoadSpec{Scenario: "RPCSimple", Seed: 1,
		Load: lab.Load{Model: lab.ModelClosed, Connections: 4, Duration: time.Second, Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	return out.Stats
}

// TestErrorsNeverCountAsThroughput runs trials against real servers on
// loopback that fail fast: throughput counts only the successful answers,
// and latency percentiles are theirs alone. Before, a server answering
// every request with a quick 503, or one that died and refused
// connections, read as the fastest of all.
func TestErrorsNeverCountAsThroughput(t *testing.T) {
	t.Run("every answer an error", func(t *testing.T) {
		s := startErrorServer(t, func(w http.ResponseWriter, _ int64) { w.WriteHeader(http.StatusServiceUnavailable) })
		st := oneSecond(t, s.url)
		if st.Requests == 0 || st.Errors != st.Requests || st.ErrorKinds["status"] != st.Requests {
			t.Fatalf("want every answer counted as a status error: %+v", st)
		}
		if st.Rate != 0 {
			t.Errorf("throughput %.1f req/s from %d answers that all failed, want 0", st.Rate, st.Requests)
		}
		if st.LatencyMs != (lab.Percentiles{}) {
			t.Errorf("latency of failed answers reported: %+v", st.LatencyMs)
		}
		tr := lab.Trial{Load: st}
		for _, name := range []string{"p50", "p99", "min"} {
			m, _ := lab.MetricByName(name)
			if v, ok := m.Of(tr); ok {
				t.Errorf("%s known (%v ms) for a trial without a successful answer", name, v)
			}
		}
		rate, _ := lab.MetricByName("rate")
		if v, ok := rate.Of(tr); !ok || v != 0 {
			t.Errorf("throughput metric %v (known %v), want 0", v, ok)
		}
	})

	// Two answers in three are fast 500s; the others, 200s, take at
	// least 5 ms: every percentile must be at least that.
	t.Run("mixed", func(t *testing.T) {
		const work = 5 * time.Millisecond
		s := startErrorServer(t, func(w http.ResponseWriter, n int64) {
			if n%3 != 0 {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			time.Sleep(work)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("15"))
		})
		st := oneSecond(t, s.url)
		if st.Succeeded() == 0 || st.Errors == 0 {
			t.Fatalf("want successes and errors: %+v", st)
		}
		checkRate(t, st)
		if minMs := float64(work) / float64(time.Millisecond); st.LatencyMs.Min < minMs || st.LatencyMs.P50 < minMs || st.ServiceMs.Min < minMs {
			t.Errorf("latency min %.3f p50 %.3f, service min %.3f ms: failed answers are in the percentiles (successes take at least %v)",
				st.LatencyMs.Min, st.LatencyMs.P50, st.ServiceMs.Min, work)
		}
	})

	// The server dies after 30 answers: the rest of the trial is refused
	// connections, which are errors, not throughput.
	t.Run("server dies", func(t *testing.T) {
		var self atomic.Pointer[errorServer] // the handler's own server, set once it listens
		s := startErrorServer(t, func(w http.ResponseWriter, n int64) {
			if n == 30 {
				go self.Load().kill()
			}
			if n > 30 { // in flight while it dies: the connection drops unanswered
				if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
					c.Close()
				}
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("15"))
		})
		self.Store(s)
		st := oneSecond(t, s.url)
		if st.Errors == 0 || st.Succeeded() == 0 || st.Succeeded() > 30 {
			t.Fatalf("want at most 30 successes, then refused connections: %+v", st)
		}
		checkRate(t, st)
	})
}

// checkRate: the trial's throughput is its successful answers per second.
func checkRate(t *testing.T, st lab.LoadStats) {
	t.Helper()
	want := float64(st.Succeeded()) / st.Seconds
	if st.Seconds <= 0 || math.Abs(st.Rate-want) > 1e-9*want {
		t.Errorf("throughput %.2f req/s; %d of %d answers succeeded in %.3f s: want %.2f", st.Rate, st.Succeeded(), st.Requests, st.Seconds, want)
	}
}
