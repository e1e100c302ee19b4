package calibrate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Part is one calibration to pool: its directory and what it recorded.
type Part struct {
	Dir string
	Res *Result
}

// Source is one pooled calibration as the merged report lists it: a
// series counted over several sessions keeps where each part ran and how
// its injections were sized there (machines differ between sessions, so
// each part sizes its own injections: "3%" means 3% of that machine's
// headline metric).
type Source struct {
	Dir      string    `json:"dir"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	CPUs     int       `json:"cpus"`
	// Rate is the baseline's median throughput there, req/s.
	Rate float64 `json:"baseline_rate"`
	// Scale is the probe's correction of the injections there (0: none).
	Scale   float64 `json:"scale,omitempty"`
	Runs    int     `json:"runs"`
	Stopped string  `json:"stopped,omitempty"`
}

// Merge pools calibrations of one design into one tally: the outcomes of
// every part (their run directories relative to the first part's parent),
// the A/A runs and effects summed. The parts must agree on the
// experiment, the test, the load, the trials and the injection; the
// first difference is an error that names the key and both values.
func Merge(parts []Part) (*Result, error) {
	if len(parts) < 2 {
		return nil, fmt.Errorf("merge: give at least two calibrations (got %d)", len(parts))
	}
	first := parts[0]
	for _, p := range parts[1:] {
		if err := sameDesign(first, p); err != nil {
			return nil, err
		}
	}
	sorted := append([]Part(nil), parts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Res.Started.Before(sorted[j].Res.Started) })
	f := sorted[0].Res
	m := &Result{Experiment: f.Experiment, Design: f.Design, Load: f.Load, Trials: f.Trials, Host: f.Host, Target: f.Target,
		Started: f.Started, Finished: f.Finished, Injection: f.Injection, BurnUsPerIteration: f.BurnUsPerIteration, Baseline: f.Baseline}
	runs := map[float64]int{}
	for _, p := range sorted {
		r := p.Res
		if r.Finished.After(m.Finished) {
			m.Finished = r.Finished
		}
		m.AARuns += r.AARuns
		for _, e := range r.Effects {
			runs[e.Pct] += e.Runs
		}
		for _, o := range r.Outcomes {
			if o.Dir != "" {
				o.Dir = filepath.Join(p.Dir, o.Dir)
			}
			m.Outcomes = append(m.Outcomes, o)
		}
		s := Source{Dir: p.Dir, Started: r.Started, Finished: r.Finished, CPUs: r.Baseline.CPUs, Rate: r.Baseline.Rate,
			Runs: len(r.Outcomes), Stopped: r.Stopped}
		if r.Sizing != nil {
			s.Scale = r.Sizing.Scale
		}
		m.Sources = append(m.Sources, s)
	}
	for pct, n := range runs {
		m.Effects = append(m.Effects, Effect{Pct: pct, Runs: n})
	}
	sort.Slice(m.Effects, func(i, j int) bool { return m.Effects[i].Pct < m.Effects[j].Pct })
	m.Rows = Tally(m.Outcomes)
	return m, nil
}

// sameDesign reports the first setting in which b differs from a.
func sameDesign(a, b Part) error {
	diff := func(key string, x, y any) error {
		return fmt.Errorf("merge: %s and %s are not the same design: %s is %v there and %v here", a.Dir, b.Dir, key, x, y)
	}
	ra, rb := a.Res, b.Res
	switch {
	case ra.Experiment != rb.Experiment:
		return diff("experiment", ra.Experiment, rb.Experiment)
	case designKey(ra.Design) != designKey(rb.Design):
		return diff("test", fmt.Sprintf("%q", ra.Design), fmt.Sprintf("%q", rb.Design))
	case ra.Injection != rb.Injection:
		return diff("injection", ra.Injection, rb.Injection)
	}
	if k, x, y, ok := firstDiff(ra.Load, rb.Load); ok {
		return diff("load."+k, x, y)
	}
	if k, x, y, ok := firstDiff(ra.Trials, rb.Trials); ok {
		return diff("trials."+k, x, y)
	}
	return nil
}

// designKey is a calibration's test as its design states it: a part whose
// first run fell back to Mann-Whitney U on some rows (a failed trial) said
// so in its text, but ran the same paired design.
func designKey(d string) string {
	return strings.Replace(d, stats.MethodPairedMixed, stats.MethodPaired, 1)
}

// firstDiff compares two records of one type field by field, in their
// order, naming a field by its JSON key (nested: "limit.p99").
func firstDiff(a, b any) (key string, x, y any, differ bool) {
	return diffValues("", reflect.ValueOf(a), reflect.ValueOf(b))
}

func diffValues(prefix string, a, b reflect.Value) (string, any, any, bool) {
	for i := range a.NumField() {
		f := a.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			name = strings.ToLower(f.Name)
		}
		if name == "seed" {
			continue // the random order's seed: not part of the design
		}
		fa, fb := a.Field(i), b.Field(i)
		if fa.Kind() == reflect.Struct {
			if k, x, y, ok := diffValues(prefix+name+".", fa, fb); ok {
				return k, x, y, true
			}
			continue
		}
		if va, vb := show(fa), show(fb); va != vb {
			return prefix + name, va, vb, true
		}
	}
	return "", nil, nil, false
}

// show is a field's value as people read it ("8s", "unset" for a nil
// pointer).
func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "unset"
		}
		v = v.Elem()
	}
	return fmt.Sprint(v.Interface())
}
