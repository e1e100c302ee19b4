// Command lab is pgrst-lab's command line: it brings up a local stack,
// loads fixtures, generates load and runs experiments on PostgREST.
//
// main only turns run's error into an exit code; signals cancel the context.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lab:", err)
		os.Exit(exitCode(err))
	}
}
