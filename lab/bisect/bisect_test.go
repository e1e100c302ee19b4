package bisect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
)

// commits are n commits, the ith's SHA a run of its letter.
func commits(n int) []track.Commit {
	var cs []track.Commit
	for i := range n {
		l := string(rune('a' + i))
		cs = append(cs, track.Commit{SHA: strings.Repeat(l, 40), Subject: "change " + l})
	}
	return cs
}

// row is a fake comparison of a variant at level v with a baseline at
// level b: significant when they differ by more than a tenth.
func row(b, v float64) stats.Row {
	pct := 100 * (v/b - 1)
	r := stats.Row{DeltaPct: pct, P: 0.5, Threshold: 0.05, Significant: math.Abs(pct) > 10}
	r.Baseline.N, r.Variant.N, r.Baseline.Median, r.Variant.Median = 6, 6, b, v
	if r.Significant {
		r.P = 0.031
	}
	return r
}

// fake is a range whose metric is level(i) at commit i: its builds count
// per commit, fail where told, and a step compares the levels.
type fake struct {
	rng    []track.Commit
	level  func(i int) float64
	broken map[int]bool
	builds map[string]int
}

func (f *fake) index(c track.Commit) int {
	for i, x := range f.rng {
		if x.SHA == c.SHA {
			return i
		}
	}
	panic("not in the range: " + c.SHA)
}

func (f *fake) bisector(out *bytes.Buffer) *Bisector {
	f.builds = map[string]int{}
	return &Bisector{Out: out,
		Build: func(_ context.Context, c track.Commit, _ func(string)) (track.Build, error) {
			f.builds[c.SHA]++
			if f.broken[f.index(c)] {
				return track.Build{}, errors.New("parse error")
			}
			return track.Build{Path: "/cache/" + c.SHA[:1] + "/postgrest", Command: "sh build.sh"}, nil
		},
		Measure: func(_ context.Context, good, mid, bad Built) (Measurement, error) {
			g, m, b := f.level(f.index(good.Commit)), f.level(f.index(mid.Commit)), f.level(f.index(bad.Commit))
			return Measurement{Comparisons: Comparisons{VsGood: row(g, m), VsBad: row(b, m), Ends: row(g, b)}, Rounds: 6}, nil
		},
	}
}

// Over 16 commits (GOOD and 15 after it) a step at any commit k is found
// in at most ⌈log2 15⌉ = 4 midpoints, each end built once; a regression
// and an improvement alike.
func TestBisectFindsTheStep(t *testing.T) {
	rng := commits(16)
	for k := 1; k < len(rng); k++ {
		for _, after := range []float64{600, 40} {
			f := &fake{rng: rng, level: func(i int) float64 {
				if i >= k {
					return after
				}
				return 100
			}}
			var out bytes.Buffer
			res, err := f.bisector(&out).Bisect(context.Background(), rng)
			if err != nil {
				t.Fatalf("k=%d: %v", k, err)
			}
			first, ok := res.First()
			if !ok || first.SHA != rng[k].SHA {
				t.Errorf("k=%d, level %g: first %v %v, stopped %q, want %s", k, after, first, ok, res.Stopped, rng[k].SHA[:1])
			}
			if n := len(res.Steps); n > StepsFor(15) || n > 4 {
				t.Errorf("k=%d: %d midpoints, want at most 4", k, n)
			}
			if f.builds[rng[0].SHA] != 1 || f.builds[rng[15].SHA] != 1 {
				t.Errorf("k=%d: the ends built %d and %d times, want once", k, f.builds[rng[0].SHA], f.builds[rng[15].SHA])
			}
		}
	}
}

// A midpoint whose build fails is skipped for the commit next to it; the
// search still ends at the first commit, and says what it skipped. The
// progress lines number the steps with an estimate of those left and the
// time left once a step was timed.
func TestBisectSkipsABrokenBuild(t *testing.T) {
	rng := commits(16)
	f := &fake{rng: rng, broken: map[int]bool{7: true}, level: func(i int) float64 {
		if i >= 11 {
			return 300
		}
		return 100
	}}
	var out bytes.Buffer
	res, err := f.bisector(&out).Bisect(context.Background(), rng)
	if err != nil {
		t.Fatal(err)
	}
	if first, ok := res.First(); !ok || first.SHA != rng[11].SHA {
		t.Fatalf("first %v %v (%s), want l:\n%s", first, ok, res.Stopped, out.String())
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Commit.SHA != rng[7].SHA || res.Steps[0].Index != 6 {
		t.Errorf("skipped %+v, first step at %d; want h skipped for g, the lower of its neighbours", res.Skipped, res.Steps[0].Index)
	}
	for _, want := range []string{"bisect aaaaaaa..ppppppp: 15 commits after GOOD, 4 steps if each decides\n",
		"step 1/4 hhhhhhh (change h): building…", "step 1 hhhhhhh (change h): the build failed; trying a commit next to it",
		"step 1/4 ggggggg (change g): measuring…", "step 2/5 kkkkkkk", "elapsed, ~", "left\n",
		"step 1 ggggggg (change g): midpoint vs GOOD +0.0% (p=0.5), vs BAD -66.7% (p=0.031), BAD vs GOOD +200.0% (p=0.031), 6 rounds: old level: differs from BAD (p=0.031), not from GOOD (p=0.5); at GOOD's level, 0% of the change\n", "step 4/4 lllllll (change l): measuring…"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, out.String())
		}
	}
	var p bytes.Buffer
	Print(&p, res, metricCPU(t))
	for _, want := range []string{"first commit of the change: " + rng[11].SHA + "\n  change l\n",
		"evidence: cpu (server + database CPU, µs/req)", "skipped hhhhhhh (change h): parse error", "  1     ggggggg (change g)  100   100       300  +0.0% (p=0.5)      -66.7% (p=0.031)  +200.0% (p=0.031)  6       old level\n",
		fmt.Sprintf("%d midpoint measurements (15 commits after GOOD: 4 if every step decides)", len(res.Steps))} {
		if !strings.Contains(p.String(), want) {
			t.Errorf("result lacks %q:\n%s", want, p.String())
		}
	}
}

// A midpoint between the levels stops the search: it cannot tell, says
// why, and names the range left.
func TestBisectStopsBetweenLevels(t *testing.T) {
	rng := commits(9)
	f := &fake{rng: rng, level: func(i int) float64 { return 100 * math.Pow(1.5, float64(i)) }} // a change per commit
	var out bytes.Buffer
	res, err := f.bisector(&out).Bisect(context.Background(), rng)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.First(); ok || len(res.Steps) != 1 || !strings.Contains(res.Stopped, "between the levels, at 50% of the change") {
		t.Fatalf("steps %d, stopped %q", len(res.Steps), res.Stopped)
	}
	var p bytes.Buffer
	Print(&p, res, metricCPU(t))
	if !strings.Contains(p.String(), "cannot tell the first commit: step 1, eeeeeee (change e): cannot tell: between") ||
		!strings.Contains(p.String(), "the change is in aaaaaaa..iiiiiii: one of 8 commits after aaaaaaa (change a)") {
		t.Errorf("result:\n%s", p.String())
	}
}

// A step's run failing stops the search with its error; a failed build of
// an end too; GOOD and BAD one commit apart need no measurement.
func TestBisectErrors(t *testing.T) {
	rng := commits(4)
	f := &fake{rng: rng, broken: map[int]bool{3: true}, level: func(int) float64 { return 1 }}
	var out bytes.Buffer
	if _, err := f.bisector(&out).Bisect(context.Background(), rng); err == nil || !strings.Contains(err.Error(), "BAD ddddddd (change d): parse error") {
		t.Errorf("a broken BAD: %v", err)
	}
	f.broken = nil
	b := f.bisector(&out)
	b.Measure = func(context.Context, Built, Built, Built) (Measurement, error) {
		return Measurement{}, errors.New("the stack is down")
	}
	if _, err := b.Bisect(context.Background(), rng); err == nil || !strings.Contains(err.Error(), "step 1, bbbbbbb (change b): the run failed: the stack is down") {
		t.Errorf("a failed run: %v", err)
	}
	res, err := b.Bisect(context.Background(), rng[:2])
	if first, ok := res.First(); err != nil || !ok || first.SHA != rng[1].SHA || len(res.Steps) != 0 {
		t.Errorf("adjacent ends: %v %v %v", first, ok, err)
	}
	if _, err := b.Bisect(context.Background(), rng[:1]); err == nil {
		t.Error("one commit: no error")
	}
}

func metricCPU(t *testing.T) lab.Metric {
	m, ok := lab.MetricByName("cpu")
	if !ok {
		t.Fatal("no metric cpu")
	}
	return m
}

func TestStepsFor(t *testing.T) {
	for n, want := range map[int]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 15: 4, 16: 4, 17: 5} {
		if got := StepsFor(n); got != want {
			t.Errorf("StepsFor(%d) = %d, want %d", n, got, want)
		}
	}
}
