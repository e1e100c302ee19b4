package lab

import (
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
	Cross *SweepAxis
	// Cheapest orders the values by cost, for the recommendation ("the
	// cheapest value as good as the best"): ascending (default for
	// numbers: the smallest value is the cheapest), descending, or listed
	// (the order of values, the first the cheapest; default for text).
	Cheapest Cheapest
	// Template holds what every generated variant shares: the file's
	// single [[variant]] (without name and baseline), set by the parser.
	Template *Variant
}

// SweepAxis is one swept key and its values: a list, or a range from From
// to To by Step (arithmetic) or Factor (geometric).
type SweepAxis struct {
	// Key is what is swept: "postgrest.<key>", "postgresql.<setting>",
	// "env.<NAME>", "dropin.<Setting>", or "rts" (GHC runtime options,
	// given as +RTS ... -RTS arguments; "" = none).
	Key    string
	Values []Scalar
	From   float64
	To     float64
	Step   float64
	Factor float64
	// Unit is appended to a range's values (work_mem from 1 to 64 with
	// unit "MB": 1MB, 2MB, ...).
	Unit string
	// Baseline is the value the baseline variant has (required).
	Baseline Scalar
}

// Scalar is a value a file may write as a string, a number or a boolean;
// it is kept as the text a config file would hold (5, 0.5, true, "4MB").
// Package experiments renders the file's values so.
type Scalar string

// Cheapest is the cost order of a sweep's values (Sweep.Cheapest); ""
// chooses by the values' kind.
type Cheapest string

// Cost orders of Sweep.Cheapest.
const (
	CheapestAscending  Cheapest = "ascending"
	CheapestDescending Cheapest = "descending"
	CheapestListed     Cheapest = "listed"
)

// Cheapests are the cost orders a file may name.
var Cheapests = []Cheapest{CheapestAscending, CheapestDescending, CheapestListed}

// Valid reports whether c is a cost order or unset, naming the allowed
// ones if not.
func (c Cheapest) Valid() error {
	if c == "" {
		return nil
	}
	return oneOf(c, "a cost order", Cheapests, "")
}

// MaxSweepValues bounds the values of one axis (and of a grid).
const MaxSweepValues = 64

// SweepPoint is one generated variant: its name and its value per axis.
type SweepPoint struct {
	Variant string
	Values  []string
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
func (s *Sweep) CostOrder() Cheapest {
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
func costOrdered(a SweepAxis, cheapest Cheapest) []string {
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
