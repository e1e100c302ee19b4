package loadgen

import (
	"fmt"
	"os"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"

	"golang.org/x/term"
)

// TerminalProgress returns a progress function that redraws one status
// line on f (rate, p99, errors, elapsed/total), or nil when f is not a
// terminal (so that logs and pipes get no control characters).
func TerminalProgress(f *os.File) func(Progress) {
	if f == nil || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(p Progress) {
		phase := ""
		if p.Warmup {
			phase = " (warm-up)"
		}
		fmt.Fprintf(f, "\r\033[K%s / %s%s  %s req/s  p99 %s  errors %d  dropped %d  in flight %d",
			p.Elapsed.Round(time.Second), p.Total.Round(time.Second), phase, format.Count(p.Rate), format.Duration(p.P99),
			p.Errors, p.Dropped, p.InFlight)
		if p.Elapsed >= p.Total {
			fmt.Fprint(f, "\r\033[K")
		}
	}
}
