package lab

import (
	"fmt"
	"slices"
	"strings"
)

// apply sets one axis' value on a variant.
func (a SweepAxis) apply(v *Variant, val string) {
	kind, key, _ := strings.Cut(a.Key, ".")
	set := func(m *map[string]string) {
		*m = cloneMap(*m)
		(*m)[key] = val
	}
	switch kind {
	case "postgrest":
		set(&v.PostgREST)
	case "postgresql":
		set(&v.PostgreSQL)
	case "env":
		set(&v.Env)
	case "dropin":
		set(&v.DropIn)
	case "rts":
		if opts := strings.Fields(val); len(opts) > 0 {
			v.Args = append(append(append(slices.Clone(v.Args), "+RTS"), opts...), "-RTS")
		}
	}
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ExpandSweep replaces the variants by the sweep's points (nothing to do
// without a sweep). The generated variants carry the template's settings
// and the point's values; the one at the baseline value(s) is the baseline.
// Call it after ValidateSweep found no problem.
func (e *Experiment) ExpandSweep() {
	s := e.Sweep
	if s == nil {
		return
	}
	axes := s.Axes()
	var out []Variant
	for _, p := range s.Points() {
		var v Variant
		if s.Template != nil {
			v = *s.Template
		}
		v.Name, v.Baseline = p.Variant, true
		var desc []string
		for i, a := range axes {
			a.apply(&v, p.Values[i])
			v.Baseline = v.Baseline && p.Values[i] == string(a.Baseline)
			desc = append(desc, a.Key+" = "+orDefault(p.Values[i]))
		}
		v.Description = "sweep: " + strings.Join(desc, ", ")
		out = append(out, v)
	}
	e.Variants = out
}

func orDefault(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(default)"
	}
	return s
}

// Origin returns where in the file a generated variant's field comes
// from: the sweep value (sweep.values[j], or sweep.from for a range, under
// sweep.cross for the second key) when field is the swept setting, else
// nil (the template's). variant is the index in the expanded variants.
func (s *Sweep) Origin(variant int, field []string) []string {
	if s == nil || variant < 0 {
		return nil
	}
	pts := s.Points()
	if variant >= len(pts) {
		return nil
	}
	for i, a := range s.Axes() {
		kind, key, _ := strings.Cut(a.Key, ".")
		swept := len(field) >= 2 && field[0] == kind && field[1] == key
		if kind == "rts" {
			swept = len(field) >= 1 && field[0] == "args"
		}
		if !swept {
			continue
		}
		root := []string{"sweep"}
		if i == 1 {
			root = append(root, "cross")
		}
		if j := slices.Index(a.List(), pts[variant].Values[i]); j >= 0 && len(a.Values) > 0 {
			return append(root, fmt.Sprintf("values[%d]", j))
		}
		return append(root, "from")
	}
	return nil
}
