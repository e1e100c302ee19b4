// Command labserver is a tiny HTTP server the systemd tests run as a unit:
// it reports its PID, an environment variable and how many SIGUSR2 it got.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "", "TCP address to listen on")
	unix := flag.String("unix", "", "Unix socket to listen on")
	delay := flag.Duration("delay", 0, "sleep before listening")
	flag.Parse()

	var usr2 atomic.Int64
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGUSR2, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			if s == syscall.SIGTERM {
				os.Exit(0)
			}
			usr2.Add(1)
		}
	}()

	fmt.Fprintf(os.Stderr, "labserver pid %d starting\n", os.Getpid())
	time.Sleep(*delay)
	var ln net.Listener
	var err error
	if *unix != "" {
		os.Remove(*unix)
		ln, err = net.Listen("unix", *unix)
	} else {
		ln, err = net.Listen("tcp", *addr)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "labserver: %v\n", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "labserver listening on %s\n", ln.Addr())
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "pid=%d\n", os.Getpid())
	})
	mux.HandleFunc("/env", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, os.Getenv(r.URL.Query().Get("k")))
	})
	mux.HandleFunc("/usr2", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, usr2.Load())
	})
	mux.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	})
	http.Serve(ln, mux)
}
