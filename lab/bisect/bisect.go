package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
)

// Built is a commit with its build.
type Built struct {
	Commit track.Commit
	track.Build
}

// Measurer measures the midpoint's build against both ends' builds in
// one run, the three interleaved round by round, and compares them (see
// RunMeasurer). A run interrupted by ctx returns ctx's error.
type Measurer func(ctx context.Context, good, mid, bad Built) (Measurement, error)

// Measurement is one step's run: its comparisons, the rounds it measured
// and its result directory ("" when none was written).
type Measurement struct {
	Comparisons
	Rounds int
	Dir    string
}

// Step is one midpoint measured and placed.
type Step struct {
	Commit track.Commit
	Index  int // in Result.Range: 0 is GOOD
	Measurement
	Decision
}

// Skip is a midpoint whose build failed: the next commit nearest the
// middle is tried instead, as `git bisect skip` does.
type Skip struct {
	Commit track.Commit
	Err    error
}

// Result is what a search found.
type Result struct {
	// Range is GOOD, the commits after it, BAD, oldest first.
	Range []track.Commit
	// Lo and Hi index Range: Range[Lo] is at the old level, Range[Hi] at
	// the new, and the change's first commit is one of Range[Lo+1..Hi].
	Lo, Hi  int
	Steps   []Step
	Skipped []Skip
	// Stopped says why the search ended before one commit was left ("" when
	// it found it).
	Stopped string
}

// First is the first commit of the change, when the search narrowed the
// range to one.
func (r *Result) First() (track.Commit, bool) {
	if r.Stopped != "" || r.Hi != r.Lo+1 {
		return track.Commit{}, false
	}
	return r.Range[r.Hi], true
}

// StepsFor is how many midpoints a search over n commits after GOOD (BAD
// the last of them) measures when every step decides: ⌈log2 n⌉.
func StepsFor(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// Bisector is `lab bisect`'s loop: build GOOD and BAD once, then halve the
// range, building each midpoint and measuring it against both ends, until
// one commit is left or a step cannot tell. cmd/lab wires Build to
// gitbuild and Measure to RunMeasurer over lab/session.
type Bisector struct {
	Build   track.Builder
	Measure Measurer
	Out     io.Writer // progress lines and each step's decision
}

// Bisect searches rng (GOOD first, BAD last, as gitbuild.Range lists
// them). It returns the result so far with an error when a build of an
// end fails, a run fails or ctx ends; a step that cannot tell is no
// error (Result.Stopped says why).
func (b *Bisector) Bisect(ctx context.Context, rng []track.Commit) (*Result, error) {
	if len(rng) < 2 {
		return nil, errors.New("bisect: the range needs GOOD and BAD, two commits at least")
	}
	res := &Result{Range: rng, Hi: len(rng) - 1}
	good, bad := rng[0], rng[len(rng)-1]
	fmt.Fprintf(b.Out, "bisect %s..%s: %d commits after GOOD, %d steps if each decides\n",
		lab.ShortCommit(good.SHA), lab.ShortCommit(bad.SHA), len(rng)-1, StepsFor(len(rng)-1))
	if res.Hi == 1 {
		return res, nil
	}
	progress := func(s string) { textsafe.Fprintf(b.Out, "  build %s\n", s) }
	var ends [2]Built
	for i, c := range []track.Commit{good, bad} {
		name := [2]string{"GOOD", "BAD"}[i]
		fmt.Fprintf(b.Out, "%s %s: building…\n", name, c.Label())
		bd, err := b.Build(ctx, c, progress)
		if err != nil {
			return res, fmt.Errorf("bisect: %s %s: %w", name, c.Label(), err)
		}
		ends[i] = Built{Commit: c, Build: bd}
	}
	var eta track.ETA
	start := time.Now()
	tried := map[int]bool{}
	for res.Hi-res.Lo > 1 {
		step := len(res.Steps) + 1 // a skipped build takes no step
		i, ok := res.next(tried)
		if !ok {
			res.Stopped = fmt.Sprintf("every commit between %s and %s failed to build", res.Range[res.Lo].Label(), res.Range[res.Hi].Label())
			return res, nil
		}
		tried[i] = true
		c, left := rng[i], StepsFor(res.Hi-res.Lo)
		line := func(phase string, builds int) {
			fmt.Fprintln(b.Out, eta.LineOf("step", step, step-1+left, c, phase, time.Since(start), builds, left))
		}
		line("building", left)
		t0 := time.Now()
		bd, err := b.Build(ctx, c, progress)
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if err != nil {
			fmt.Fprintf(b.Out, "step %d %s: the build failed; trying a commit next to it\n", step, c.Label())
			res.Skipped = append(res.Skipped, Skip{Commit: c, Err: err})
			continue
		}
		eta.Built(time.Since(t0), bd.Cached)
		line("measuring", left-1)
		t0 = time.Now()
		m, err := b.Measure(ctx, ends[0], Built{Commit: c, Build: bd}, ends[1])
		if ctx.Err() != nil {
			return res, fmt.Errorf("bisect: interrupted at step %d, %s: %w", step, c.Label(), ctx.Err())
		}
		if err != nil {
			return res, fmt.Errorf("bisect: step %d, %s: the run failed: %w", step, c.Label(), err)
		}
		eta.Ran(time.Since(t0))
		d, _ := Decide(m.Comparisons, true)
		s := Step{Commit: c, Index: i, Measurement: m, Decision: d}
		res.Steps = append(res.Steps, s)
		textsafe.Fprintf(b.Out, "step %d %s\n", step, s.Line())
		switch d.Level {
		case Old:
			res.Lo = i
		case New:
			res.Hi = i
		default:
			res.Stopped = fmt.Sprintf("step %d, %s: cannot tell: %s", step, c.Label(), d.Why)
			return res, nil
		}
	}
	return res, nil
}

// next is the untried commit strictly between Lo and Hi nearest the
// middle (the lower of two as near).
func (r *Result) next(tried map[int]bool) (int, bool) {
	mid := (r.Lo + r.Hi) / 2
	for d := 0; mid-d > r.Lo || mid+d < r.Hi; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > r.Lo && i < r.Hi && !tried[i] {
				return i, true
			}
		}
	}
	return 0, false
}
