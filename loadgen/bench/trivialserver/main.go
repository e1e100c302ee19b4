// Command trivialserver is the reference server of compare-wrk.sh: a
// fasthttp server on loopback answering every request with 200 and a
// 200-byte body, so that the load generator, not the server, is measured.
package main

import (
	"flag"
	"log"
	"net"
	"os"
	"strings"

	"github.com/valyala/fasthttp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18080", "listen address (loopback only)")
	unix := flag.String("unix", "", "listen on this Unix socket instead")
	flag.Parse()
	body := []byte(strings.Repeat("x", 199) + "\n")
	h := func(ctx *fasthttp.RequestCtx) {
		ctx.SetContentType("text/plain")
		ctx.SetBody(body)
	}
	srv := &fasthttp.Server{Handler: h, Name: "trivial"}
	var ln net.Listener
	var err error
	if *unix != "" {
		os.Remove(*unix)
		ln, err = net.Listen("unix", *unix)
	} else {
		host, _, _ := net.SplitHostPort(*addr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			log.Fatalf("trivialserver: %s is not a loopback address", *addr)
		}
		ln, err = net.Listen("tcp", *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(srv.Serve(ln))
}
