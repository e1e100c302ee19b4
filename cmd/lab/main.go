// Command lab is pgrst-lab's command line: it brings up a local stack,
// loads fixtures, generates load and runs experiments on PostgREST.
//
// main only turns run's error into an exit code (and an internal error's
// stack into a file); signals cancel the context.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		// The error may quote a file, an agent, a server or a build's
		// log: nothing in it may act on the terminal.
		fmt.Fprintln(os.Stderr, "lab:", textsafe.Lines(err.Error()))
		if note := writeStack(err, os.TempDir()); note != "" {
			fmt.Fprintln(os.Stderr, "lab:", note)
		}
		os.Exit(exitCode(err))
	}
}

// writeStack writes the stack of an internal error (a recovered panic, see
// lab.InternalError) to a new file in dir and says where, so that the
// terminal shows what failed and not a Go trace; "" when err holds none.
func writeStack(err error, dir string) string {
	st := lab.PanicStack(err)
	if st == nil {
		return ""
	}
	f, ferr := os.CreateTemp(dir, "lab-internal-error-*.txt")
	if ferr != nil {
		return fmt.Sprintf("this is a bug in pgrst-lab; its stack trace could not be written: %v", ferr)
	}
	_, werr := fmt.Fprintf(f, "%v\n\n%s", err, st)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Sprintf("this is a bug in pgrst-lab; its stack trace could not be written: %v", werr)
	}
	return "this is a bug in pgrst-lab; the stack trace is in " + f.Name() + " (please attach it to a report)"
}
