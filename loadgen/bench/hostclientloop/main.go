// Command hostclientloop is a closed loop over fasthttp's own clients
// (HostClient, or PipelineClient with -pipeline): N goroutines, each sending
// the same GET as soon as the previous answer arrived, for a fixed time
// (loopback only). It exists to compare their CPU per request with the
// loadgen design (fasthttp.Request/Response on a connection per goroutine),
// e.g. pinned next to `lab load` and wrk:
//
//	taskset -c 0 /usr/bin/time -f '%U %S' hostclientloop -addr 127.0.0.1:18080 -c 50 -d 10s
//
// It prints {"requests": N, "duration_s": S, "errors": E}.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18181", "")
	conns := flag.Int("c", 50, "")
	dur := flag.Duration("d", 10*time.Second, "")
	maxReq := flag.Int64("n", 50_000_000, "stop after this many requests")
	pipeline := flag.Bool("pipeline", false, "PipelineClient instead of HostClient")
	flag.Parse()
	if host, _, err := net.SplitHostPort(*addr); err != nil || !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(os.Stderr, "hostclientloop: -addr %q: want a loopback IP:port\n", *addr)
		os.Exit(2)
	}
	if *dur <= 0 || *dur > time.Hour {
		fmt.Fprintf(os.Stderr, "hostclientloop: -d %v: want 0 < d <= 1h\n", *dur)
		os.Exit(2)
	}
	var do func(*fasthttp.Request, *fasthttp.Response) error
	if *pipeline {
		pc := &fasthttp.PipelineClient{Addr: *addr, MaxConns: *conns, MaxPendingRequests: *conns, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
		do = pc.Do
	} else {
		hc := &fasthttp.HostClient{Addr: *addr, MaxConns: *conns, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
		do = hc.Do
	}
	var n, errs atomic.Int64
	end := time.Now().Add(*dur)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range *conns {
		wg.Go(func() {
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			req.SetRequestURI("http://" + *addr + "/")
			for time.Now().Before(end) && n.Load() < *maxReq {
				if err := do(req, resp); err != nil {
					errs.Add(1)
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	el := time.Since(t0).Seconds()
	fmt.Printf("{\"requests\": %d, \"duration_s\": %f, \"errors\": %d}\n", n.Load(), el, errs.Load())
}
