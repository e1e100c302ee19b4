package lab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// ValidateSweep returns the problems of the sweep itself (keys, values,
// ranges, baseline, template), each a *FieldError; nil without a sweep.
// Validate includes them; the values' settings are checked there, on the
// generated variants.
func (e *Experiment) ValidateSweep() []error {
	var v validator
	v.sweep(e)
	return v.errs
}

// sweep checks the sweep's keys, values and baseline.
func (v *validator) sweep(e *Experiment) {
	s := e.Sweep
	if s == nil {
		return
	}
	if t := s.Template; t != nil {
		if t.Name != "" {
			v.add("a sweep names its variants (key=value): leave name out of the [[variant]] every value shares", "variant[0]", "name")
		}
		if t.Baseline {
			v.add("a sweep's baseline is sweep.baseline, the value it names", "variant[0]", "baseline")
		}
	}
	if err := s.Cheapest.Valid(); err != nil {
		v.add(err.Error(), "sweep", "cheapest")
	}
	n := 1
	for i, a := range s.Axes() {
		root := []string{"sweep"}
		if i == 1 {
			root = append(root, "cross")
		}
		n *= max(1, len(a.List()))
		v.axis(a, root)
	}
	if s.Cross != nil && s.Cross.Key == s.Key && s.Key != "" {
		v.add(fmt.Sprintf("%q is already the first key; a grid crosses two different keys", s.Key), "sweep", "cross", "key")
	}
	if n > MaxSweepValues {
		v.add(fmt.Sprintf("%d variants: a sweep may generate at most %d", n, MaxSweepValues), "sweep")
	}
}

func (v *validator) axis(a SweepAxis, root []string) {
	at := func(f string) []string { return append(slices.Clone(root), f) }
	kind, key, dotted := strings.Cut(a.Key, ".")
	switch {
	case a.Key == "":
		v.add("is required: postgrest.<key>, postgresql.<setting>, env.<NAME>, dropin.<Setting> or rts", at("key")...)
	case !slices.Contains(sweepKinds, kind):
		v.add(fmt.Sprintf("%q: the key must start with postgrest., postgresql., env. or dropin., or be rts", a.Key), at("key")...)
	case kind == "rts" && dotted:
		v.add(fmt.Sprintf("%q: write rts alone; its values are runtime options such as \"-N1\" or \"-A64m -qn1\"", a.Key), at("key")...)
	case kind != "rts" && key == "":
		v.add(fmt.Sprintf("%q: name the setting after %s.", a.Key, kind), at("key")...)
	}
	isRange := a.From != 0 || a.To != 0 || a.Step != 0 || a.Factor != 0
	switch {
	case len(a.Values) > 0 && isRange:
		v.add("give values or a range (from, to, step or factor), not both", at("values")...)
	case len(a.Values) == 0 && !isRange:
		v.add("give values = [...] or a range (from, to, step or factor)", at("values")...)
	case isRange:
		v.sweepRange(a, at)
	}
	seen, hidden := map[string]int{}, false
	for j, val := range a.List() {
		if k, dup := seen[val]; dup {
			v.add(fmt.Sprintf("%q is listed twice (values[%d])", val, k), at(fmt.Sprintf("values[%d]", j))...)
		}
		seen[val] = j
		// A sweep's values name its variants, which run.json, the
		// reports and the store show as they are.
		if !hidden && capability.RedactSetting(kind, key, val) != val {
			hidden = true
			v.add(fmt.Sprintf("%s's values may hold a secret, which the lab never shows; a sweep writes each value into a variant's name: give the variants as [[variant]] tables instead", a.Key), at(fmt.Sprintf("values[%d]", j))...)
		}
	}
	if len(a.List()) > MaxSweepValues {
		v.add(fmt.Sprintf("%d values: at most %d", len(a.List()), MaxSweepValues), at("values")...)
	}
	if vals := a.List(); len(vals) > 0 && !slices.Contains(vals, string(a.Baseline)) {
		v.add(fmt.Sprintf("%q is not one of the values (allowed: %s)", a.Baseline, quoteList(vals)), at("baseline")...)
	}
}

func (v *validator) sweepRange(a SweepAxis, at func(string) []string) {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !finite(a.From) || !finite(a.To) || a.To <= a.From {
		v.add(fmt.Sprintf("%v must be above from (%v)", a.To, a.From), at("to")...)
	}
	switch {
	case a.Step != 0 && a.Factor != 0:
		v.add("give step (arithmetic) or factor (geometric), not both", at("factor")...)
	case a.Step != 0:
		if !(a.Step > 0) || !finite(a.Step) {
			v.add(fmt.Sprintf("%v must be > 0", a.Step), at("step")...)
		}
	case a.Factor != 0:
		if !(a.Factor > 1) || !finite(a.Factor) {
			v.add(fmt.Sprintf("%v must be > 1 (each value is the previous times factor)", a.Factor), at("factor")...)
		}
		if !(a.From > 0) {
			v.add(fmt.Sprintf("%v must be > 0 for a geometric range (factor)", a.From), at("from")...)
		}
	default:
		v.add("a range needs step (arithmetic) or factor (geometric)", at("from")...)
	}
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, s := range vals {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
