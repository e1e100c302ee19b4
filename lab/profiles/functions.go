package profiles

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Variant is one variant's CPU profile over all its trials.
type Variant struct {
	Name     string
	Baseline bool
	Trials   int
	Samples  int64
	PeriodNs int64
	// PerfCPUSeconds is perf's own CPU over the trials, ServiceCPUSeconds
	// the target's and PostgreSQL's in their windows.
	PerfCPUSeconds, ServiceCPUSeconds float64
	Stacks                            []lab.Stack // merged, most samples first
	Funcs                             []Func      // most self samples first
}

// Func is one function of one service and its samples: Self where it was
// running, Total where it was on the stack (once per sample).
type Func struct {
	Service    string  `json:"service"`
	Name       string  `json:"name"`
	Self       int64   `json:"self"`
	Total      int64   `json:"total"`
	SelfShare  float64 `json:"self_share"`  // of all the variant's samples, 0..1
	TotalShare float64 `json:"total_share"` // of all the variant's samples, 0..1
}

// Key names a function across variants.
func (f Func) Key() string { return f.Service + "\x00" + f.Name }

// CPU is the variants' profiles, in the run's variant order; variants
// without a profiled trial (or a run without profiles) are left out.
func CPU(run *lab.Run) []Variant {
	var out []Variant
	for _, vi := range run.Variants {
		v := Variant{Name: vi.Name, Baseline: vi.Baseline}
		merged := map[string]*lab.Stack{}
		for _, t := range run.Trials {
			if t.Variant != vi.Name || t.Profile == nil || t.Error != "" {
				continue
			}
			v.Trials++
			v.Samples += t.Profile.Samples
			v.PeriodNs = t.Profile.PeriodNs
			v.PerfCPUSeconds += t.Profile.PerfCPUSeconds
			v.ServiceCPUSeconds += t.Server.CPUSeconds + t.Database.CPUSeconds
			for _, s := range t.Profile.Stacks {
				k := stackKey(s.Frames)
				if m, ok := merged[k]; ok {
					m.Count += s.Count
				} else {
					merged[k] = &lab.Stack{Frames: s.Frames, Count: s.Count}
				}
			}
			if t.Profile.Dropped > 0 {
				merged["\x00other"] = addOther(merged["\x00other"], t.Profile.Dropped)
			}
		}
		if v.Trials == 0 {
			continue
		}
		for _, s := range merged {
			v.Stacks = append(v.Stacks, *s)
		}
		slices.SortFunc(v.Stacks, func(a, b lab.Stack) int {
			if c := cmp.Compare(b.Count, a.Count); c != 0 {
				return c
			}
			return slices.Compare(a.Frames, b.Frames)
		})
		v.Funcs = Functions(v.Stacks, v.Samples)
		out = append(out, v)
	}
	return out
}

func addOther(s *lab.Stack, n int64) *lab.Stack {
	if s == nil {
		return &lab.Stack{Frames: []string{"[stacks beyond the kept ones]"}, Count: n}
	}
	s.Count += n
	return s
}

func stackKey(frames []string) string {
	n := 0
	for _, f := range frames {
		n += len(f) + 1
	}
	b := make([]byte, 0, n)
	for _, f := range frames {
		b = append(append(b, f...), 0)
	}
	return string(b)
}

// Functions counts every function's self and total samples in the
// stacks (the first frame is the service).
func Functions(stacks []lab.Stack, samples int64) []Func {
	funcs := map[string]*Func{}
	get := func(service, name string) *Func {
		k := service + "\x00" + name
		f, ok := funcs[k]
		if !ok {
			f = &Func{Service: service, Name: name}
			funcs[k] = f
		}
		return f
	}
	for _, s := range stacks {
		if len(s.Frames) == 0 {
			continue
		}
		service := s.Frames[0]
		fr := s.Frames[1:]
		if len(fr) == 0 {
			fr = s.Frames // a stack without frames: the service itself
		}
		seen := map[string]bool{}
		for _, name := range fr {
			if !seen[name] {
				seen[name] = true
				get(service, name).Total += s.Count
			}
		}
		get(service, fr[len(fr)-1]).Self += s.Count
	}
	out := make([]Func, 0, len(funcs))
	for _, f := range funcs {
		if samples > 0 {
			f.SelfShare = float64(f.Self) / float64(samples)
			f.TotalShare = float64(f.Total) / float64(samples)
		}
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Func) int {
		if c := cmp.Compare(b.Self, a.Self); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Key(), b.Key())
	})
	return out
}

// Unsymbolized reports whether a frame stands for the code of an
// executable that perf (and the lab, from its symbol table) could not
// name: "[postgresql executable]" (host/profiler names such frames
// after their service).
func Unsymbolized(name string) bool {
	return strings.HasPrefix(name, "[") && strings.HasSuffix(name, " executable]")
}

// Top is the first n functions by self samples, or by total samples,
// leaving out those with none and executables' code without symbols
// (not a function: see Unnamed).
func Top(funcs []Func, n int, byTotal bool) []Func {
	out := make([]Func, 0, len(funcs))
	for _, f := range funcs {
		if Unsymbolized(f.Name) {
			continue
		}
		if byTotal && f.Total > 0 || !byTotal && f.Self > 0 {
			out = append(out, f)
		}
	}
	if byTotal {
		slices.SortStableFunc(out, func(a, b Func) int { return cmp.Compare(b.Total, a.Total) })
	}
	return out[:min(n, len(out))]
}

// Unnamed is the executables' code without symbols that has self
// samples, most first.
func Unnamed(funcs []Func) []Func {
	var out []Func
	for _, f := range funcs {
		if Unsymbolized(f.Name) && f.Self > 0 {
			out = append(out, f)
		}
	}
	return out
}

// FuncChange is one function's share in the baseline and in a variant,
// and the differences in percentage points.
type FuncChange struct {
	Service    string  `json:"service"`
	Name       string  `json:"name"`
	BaseSelf   float64 `json:"baseline_self_share"`
	VarSelf    float64 `json:"variant_self_share"`
	BaseTotal  float64 `json:"baseline_total_share"`
	VarTotal   float64 `json:"variant_total_share"`
	SelfDelta  float64 `json:"self_delta_pp"`
	TotalDelta float64 `json:"total_delta_pp"`
}

// Changes are the n functions whose self share (then total share) changed
// most from the baseline to the variant; executables' code without
// symbols is not a function and is left out (Unnamed has its shares).
func Changes(base, v Variant, n int) []FuncChange {
	by := map[string]*FuncChange{}
	get := func(f Func) *FuncChange {
		c, ok := by[f.Key()]
		if !ok {
			c = &FuncChange{Service: f.Service, Name: f.Name}
			by[f.Key()] = c
		}
		return c
	}
	for _, f := range base.Funcs {
		c := get(f)
		c.BaseSelf, c.BaseTotal = f.SelfShare, f.TotalShare
	}
	for _, f := range v.Funcs {
		c := get(f)
		c.VarSelf, c.VarTotal = f.SelfShare, f.TotalShare
	}
	out := make([]FuncChange, 0, len(by))
	for _, c := range by {
		if Unsymbolized(c.Name) {
			continue
		}
		c.SelfDelta = 100 * (c.VarSelf - c.BaseSelf)
		c.TotalDelta = 100 * (c.VarTotal - c.BaseTotal)
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b FuncChange) int {
		if c := cmp.Compare(math.Abs(b.SelfDelta), math.Abs(a.SelfDelta)); c != 0 {
			return c
		}
		if c := cmp.Compare(math.Abs(b.TotalDelta), math.Abs(a.TotalDelta)); c != 0 {
			return c
		}
		return cmp.Compare(a.Service+a.Name, b.Service+b.Name)
	})
	return out[:min(n, len(out))]
}
