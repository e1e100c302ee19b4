package profiles

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// SQL is the statements one variant sent on one scenario, over all its
// trials' measured windows; Requests is the requests those windows saw
// (Trial.WindowRequests: a search's every step, not its best one).
type SQL struct {
	Scenario   string    `json:"scenario"`
	Variant    string    `json:"variant"`
	Baseline   bool      `json:"baseline,omitempty"`
	Requests   int64     `json:"requests"`
	Statements []SQLStat `json:"statements"` // most calls first
}

// SQLStat is one statement's calls per HTTP request and mean time.
type SQLStat struct {
	Query      string  `json:"query"`
	Calls      int64   `json:"calls"`
	PerRequest float64 `json:"calls_per_request"`
	MeanMs     float64 `json:"mean_ms"`
}

// CallsPerRequest is the sum of the statements' calls per request.
func (s SQL) CallsPerRequest() float64 {
	t := 0.0
	for _, st := range s.Statements {
		t += st.PerRequest
	}
	return t
}

// SQLOf groups the run's statements by scenario and variant (run order);
// pairs without a trial that read statements are left out.
func SQLOf(run *lab.Run) []SQL {
	var out []SQL
	for _, sc := range run.Experiment.Scenarios {
		for _, vi := range run.Variants {
			s := SQL{Scenario: sc, Variant: vi.Name, Baseline: vi.Baseline}
			calls, ms := map[string]int64{}, map[string]float64{}
			seen := false
			for _, t := range run.Trials {
				if t.Variant != vi.Name || t.Scenario != sc || t.Error != "" || t.SQL == nil {
					continue
				}
				seen = true
				s.Requests += t.WindowRequests() // what the statements were counted over
				for _, st := range t.SQL {
					q := normalise(st.Query)
					calls[q] += st.Calls
					ms[q] += st.TotalMs
				}
			}
			if !seen || s.Requests == 0 {
				continue
			}
			for q, n := range calls {
				s.Statements = append(s.Statements, SQLStat{Query: q, Calls: n,
					PerRequest: float64(n) / float64(s.Requests), MeanMs: ms[q] / float64(n)})
			}
			slices.SortFunc(s.Statements, func(a, b SQLStat) int {
				if c := cmp.Compare(b.Calls, a.Calls); c != 0 {
					return c
				}
				return cmp.Compare(a.Query, b.Query)
			})
			out = append(out, s)
		}
	}
	return out
}

// normalise folds whitespace, so that the same statement from two builds
// (or two trials) is one.
func normalise(q string) string { return strings.Join(strings.Fields(q), " ") }

// Change kinds of a statement between the baseline and a variant.
const (
	SQLOnlyVariant  = "only in variant"
	SQLOnlyBaseline = "only in baseline"
	SQLCallsChanged = "calls/request changed"
)

// SQLChange is one statement's calls per request in the baseline and a
// variant; Kind is set when the difference is one a reader must see.
type SQLChange struct {
	Scenario   string  `json:"scenario"`
	Variant    string  `json:"variant"`
	Query      string  `json:"query"`
	Kind       string  `json:"kind,omitempty"`
	Base       float64 `json:"baseline_calls_per_request"`
	Var        float64 `json:"variant_calls_per_request"`
	BaseMeanMs float64 `json:"baseline_mean_ms"`
	VarMeanMs  float64 `json:"variant_mean_ms"`
}

// Thresholds of SQLChanges: a statement sent at least minPerRequest times
// per request that the other side never sent, or a change of calls per
// request of at least minDelta and minRelative of the baseline's.
const (
	minPerRequest = 0.05
	minDelta      = 0.05
	minRelative   = 0.10
)

// SQLChanges compares a variant's statements with the baseline's on the
// same scenario: flagged changes first (a statement in one only, calls per
// request changed), then the rest by how much calls per request moved.
func SQLChanges(base, v SQL) []SQLChange {
	by := map[string]*SQLChange{}
	var order []string
	get := func(q string) *SQLChange {
		c, ok := by[q]
		if !ok {
			c = &SQLChange{Scenario: v.Scenario, Variant: v.Variant, Query: q}
			by[q] = c
			order = append(order, q)
		}
		return c
	}
	for _, s := range base.Statements {
		c := get(s.Query)
		c.Base, c.BaseMeanMs = s.PerRequest, s.MeanMs
	}
	for _, s := range v.Statements {
		c := get(s.Query)
		c.Var, c.VarMeanMs = s.PerRequest, s.MeanMs
	}
	out := make([]SQLChange, 0, len(order))
	for _, q := range order {
		c := by[q]
		d := c.Var - c.Base
		switch {
		case c.Base == 0 && c.Var >= minPerRequest:
			c.Kind = SQLOnlyVariant
		case c.Var == 0 && c.Base >= minPerRequest:
			c.Kind = SQLOnlyBaseline
		case c.Base > 0 && c.Var > 0 && math.Abs(d) >= minDelta && math.Abs(d) >= minRelative*c.Base:
			c.Kind = SQLCallsChanged
		}
		out = append(out, *c)
	}
	slices.SortStableFunc(out, func(a, b SQLChange) int {
		if (a.Kind != "") != (b.Kind != "") {
			if a.Kind != "" {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(b.Var-b.Base), math.Abs(a.Var-a.Base))
	})
	return out
}
