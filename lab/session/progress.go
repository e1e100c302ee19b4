package session

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TermProgress prints a run's progress (a lab.Progress): one line per
// finished trial and, on a terminal, a live status line rewritten in
// place. What the trials' errors and notes say goes through textsafe.
type TermProgress struct {
	mu   sync.Mutex
	w    io.Writer
	tty  bool
	live bool // a live line is on screen
}

// NewTermProgress prints to w, with the live line when w is a terminal.
func NewTermProgress(w io.Writer) *TermProgress {
	p := &TermProgress{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

func (p *TermProgress) clear() {
	if p.live {
		fmt.Fprint(p.w, "\r\033[K")
		p.live = false
	}
}

// Applying shows, on a terminal, the variant being applied.
func (p *TermProgress) Applying(pos lab.Position) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, "%s applying %s, restarting, waiting for ready...", counter(pos), pos.Variant)
	p.live = true
}

// TrialStarted prints nothing: the live line follows.
func (p *TermProgress) TrialStarted(lab.Position) {}

// Load rewrites the live line, on a terminal, with the load so far.
func (p *TermProgress) Load(pos lab.Position, lp lab.LoadProgress) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	phase := "measuring"
	if lp.Warmup {
		phase = "warm-up"
	}
	fmt.Fprintf(p.w, "%s %-10s %-16s %s %4.0fs/%-3.0fs %7.0f req/s  p99 %6.2f ms  errors %d  %s",
		counter(pos), pos.Variant, pos.Scenario, phase, lp.Elapsed.Seconds(), lp.Total.Seconds(), lp.Rate, lp.P99Ms, lp.Errors, timing(pos))
	p.live = true
}

// TrialDone prints the trial's line: its rate, latency and CPU per
// request, or why it failed.
func (p *TermProgress) TrialDone(pos lab.Position, t lab.Trial) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	if t.Error != "" {
		textsafe.Fprintf(p.w, "%s %-10s %-16s FAILED: %s\n", counter(pos), t.Variant, t.Scenario, oneLine(t.Error))
		return
	}
	fmt.Fprintf(p.w, "%s %-10s %-16s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  server %5.0f µs/req  db %5.0f µs/req  %s\n",
		counter(pos), t.Variant, t.Scenario, t.Load.Rate, t.Load.LatencyMs.P50, t.Load.LatencyMs.P99,
		t.Server.CPUPerRequestUs, t.Database.CPUPerRequestUs, timing(pos))
}

// Note prints msg on a line of its own, indented.
func (p *TermProgress) Note(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	textsafe.Fprintf(p.w, "  %s\n", msg)
}

func counter(pos lab.Position) string {
	if pos.MinTrials == pos.MaxTrials {
		return fmt.Sprintf("[%d/%d]", pos.Seq, pos.MaxTrials)
	}
	return fmt.Sprintf("[trial %d, stops between %d and %d]", pos.Seq, pos.MinTrials, pos.MaxTrials)
}

// timing is the elapsed time and the estimate left: a range, from the
// earliest stop to the latest, when the run may stop early.
func timing(pos lab.Position) string {
	if pos.MinTrials != pos.MaxTrials && pos.Latest > 0 && short(pos.Earliest) != short(pos.Latest) {
		return fmt.Sprintf("(%s elapsed, ~%s–%s left)", short(pos.Elapsed), short(pos.Earliest), short(pos.Latest))
	}
	return fmt.Sprintf("(%s elapsed, ~%s left)", short(pos.Elapsed), short(pos.Remaining))
}

func short(d time.Duration) string {
	d = d.Round(time.Second)
	if d >= time.Minute {
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " | ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
