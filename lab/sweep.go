package lab

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Sweep is an experiment's [sweep]: one key measured at a list or a range
// of values, optionally crossed with a second key (Cross: a grid). The
// variants are generated from it (ExpandSweep), named "<label>=<value>"
// (db-pool=5; in a grid db-pool=5+work_mem=4MB), so that the report can
// draw each metric against the value and recommend one.
type Sweep struct {
	SweepAxis
	// Cross is the optional second key of a grid.
	Cross *SweepAxis `toml:"cross" json:"cross,omitempty"`
	// Cheapest orders the values by cost, for the recommendation ("the
	// cheapest value as good as the best"): ascending (default for
	// numbers: the smallest value is the cheapest), descending, or listed
	// (the order of values, the first the cheapest; default for text).
	Cheapest string `toml:"cheapest" json:"cheapest,omitempty"`
	// Template holds what every generated variant shares: the file's
	// single [[variant]] (without name and baseline), set by the parser.
	Template *Variant `toml:"-" json:"template,omitempty"`
}

// SweepAxis is one swept key and its values: a list, or a range from From
// to To by Step (arithmetic) or Factor (geometric).
type SweepAxis struct {
	// Key is what is swept: "postgrest.<key>", "postgresql.<setting>",
	// "env.<NAME>", "dropin.<Setting>", or "rts" (GHC runtime options,
	// given as +RTS ... -RTS arguments; "" = none).
	Key    string   `toml:"key" json:"key"`
	Values []Scalar `toml:"values" json:"values,omitempty"`
	From   float64  `toml:"from" json:"from,omitempty"`
	To     float64  `toml:"to" json:"to,omitempty"`
	Step   float64  `toml:"step" json:"step,omitempty"`
	Factor float64  `toml:"factor" json:"factor,omitempty"`
	// Unit is appended to a range's values (work_mem from 1 to 64 with
	// unit "MB": 1MB, 2MB, ...).
	Unit string `toml:"unit" json:"unit,omitempty"`
	// Baseline is the value the baseline variant has (required).
	Baseline Scalar `toml:"baseline" json:"baseline"`
}

// Scalar is a value a file may write as a string, a number or a boolean;
// it is kept as the text a config file would hold (5, 0.5, true, "4MB").
type Scalar string

// UnmarshalTOML implements the TOML decoder's Unmarshaler.
func (s *Scalar) UnmarshalTOML(v any) error {
	t, err := ScalarText(v)
	*s = Scalar(t)
	return err
}

// ScalarText renders a decoded TOML scalar as text: strings as they are,
// numbers and booleans as TOML writes them.
func ScalarText(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("must be a string, number or boolean, not %T", v)
}

// Cost orders of Sweep.Cheapest.
const (
	CheapestAscending  = "ascending"
	CheapestDescending = "descending"
	CheapestListed     = "listed"
)

// MaxSweepValues bounds the values of one axis (and of a grid).
const MaxSweepValues = 64

// SweepPoint is one generated variant: its name and its value per axis.
type SweepPoint struct {
	Variant string   `json:"variant"`
	Values  []string `json:"values"`
}

var sweepKinds = []string{"postgrest", "postgresql", "env", "dropin", "rts"}

// Label is the axis' short name: the key without its kind (db-pool).
func (a SweepAxis) Label() string {
	if _, k, ok := strings.Cut(a.Key, "."); ok {
		return k
	}
	return a.Key
}

// Geometric reports whether the values are best drawn on a log axis: a
// geometric range, or positive numbers spanning a factor of 10 or more.
func (a SweepAxis) Geometric() bool {
	if a.Factor > 0 {
		return true
	}
	xs, ok := a.Numbers()
	if !ok || len(xs) < 3 {
		return false
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	return lo > 0 && hi/lo >= 10
}

// List returns the axis' values: Values, or the range's, as text.
func (a SweepAxis) List() []string {
	if len(a.Values) > 0 {
		out := make([]string, len(a.Values))
		for i, v := range a.Values {
			out[i] = string(v)
		}
		return out
	}
	var out []string
	if !(a.To >= a.From) || math.IsInf(a.To, 0) {
		return nil
	}
	end := a.To * (1 + 1e-9)
	for x := a.From; x <= end && len(out) <= MaxSweepValues; {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64) // 6 digits: no 0.30000000000000004
		out = append(out, strconv.FormatFloat(r, 'f', -1, 64)+a.Unit)
		switch {
		case a.Step > 0:
			x = a.From + float64(len(out))*a.Step
		case a.Factor > 1 && a.From > 0:
			x *= a.Factor
		default:
			return out
		}
	}
	return out
}

var leadingNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)

// Numbers returns the values as numbers (their leading number: 4MB is 4)
// when every value has one and all share the same suffix.
func (a SweepAxis) Numbers() ([]float64, bool) {
	vals := a.List()
	var xs []float64
	suffix := ""
	for i, v := range vals {
		n := leadingNumber.FindString(v)
		if n == "" {
			return nil, false
		}
		if i == 0 {
			suffix = v[len(n):]
		} else if v[len(n):] != suffix {
			return nil, false
		}
		x, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return nil, false
		}
		xs = append(xs, x)
	}
	return xs, len(xs) > 0
}

// Axes returns the sweep's axes: the first key, then Cross if set.
func (s *Sweep) Axes() []SweepAxis {
	axes := []SweepAxis{s.SweepAxis}
	if s.Cross != nil {
		axes = append(axes, *s.Cross)
	}
	return axes
}

// CostOrder returns the order of Cheapest, defaulting to ascending for
// numeric values and listed otherwise.
func (s *Sweep) CostOrder() string {
	if s.Cheapest != "" {
		return s.Cheapest
	}
	if _, ok := s.Numbers(); ok {
		return CheapestAscending
	}
	return CheapestListed
}

// Points lists the generated variants, cheapest first as CostOrder says
// (in a grid, by the first key, then the second).
func (s *Sweep) Points() []SweepPoint {
	axes := s.Axes()
	lists := make([][]string, len(axes))
	for i, a := range axes {
		lists[i] = costOrdered(a, s.Cheapest)
	}
	var out []SweepPoint
	var walk func(i int, vals []string)
	walk = func(i int, vals []string) {
		if i == len(axes) {
			out = append(out, SweepPoint{Variant: sweepName(axes, vals), Values: slices.Clone(vals)})
			return
		}
		for _, v := range lists[i] {
			walk(i+1, append(vals, v))
		}
	}
	walk(0, nil)
	return out
}

// costOrdered returns an axis' values cheapest first.
func costOrdered(a SweepAxis, cheapest string) []string {
	vals := a.List()
	xs, numeric := a.Numbers()
	if cheapest == "" {
		cheapest = CheapestListed
		if numeric {
			cheapest = CheapestAscending
		}
	}
	if cheapest == CheapestListed || !numeric {
		return vals
	}
	idx := make([]int, len(vals))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		if cheapest == CheapestDescending {
			i, j = j, i
		}
		switch {
		case xs[i] < xs[j]:
			return -1
		case xs[i] > xs[j]:
			return 1
		}
		return 0
	})
	out := make([]string, len(vals))
	for k, i := range idx {
		out[k] = vals[i]
	}
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._=+-]+`)

// variantNameRe is what a variant may be named: nameRe and the '=' and '+'
// of sweep names (db-pool=5+work_mem=4MB).
var variantNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._=+-]*$`)

// sweepName names the variant of one point: "db-pool=5",
// "db-pool=5+work_mem=4MB"; an empty value is "default".
func sweepName(axes []SweepAxis, vals []string) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		if strings.TrimSpace(v) == "" {
			v = "default"
		}
		parts[i] = axes[i].Label() + "=" + strings.Trim(unsafeName.ReplaceAllString(v, "_"), "_")
	}
	return strings.Join(parts, "+")
}

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
	switch s.Cheapest {
	case "", CheapestAscending, CheapestDescending, CheapestListed:
	default:
		v.add(fmt.Sprintf("%q is not a cost order (allowed: ascending, descending, listed)", s.Cheapest), "sweep", "cheapest")
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
	seen := map[string]int{}
	for j, val := range a.List() {
		if k, dup := seen[val]; dup {
			v.add(fmt.Sprintf("%q is listed twice (values[%d])", val, k), at(fmt.Sprintf("values[%d]", j))...)
		}
		seen[val] = j
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
