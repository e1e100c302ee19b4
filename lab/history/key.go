package history

import (
	"crypto/sha256"
	"encoding/hex"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"time"
)

// Key names a change point across runs of `lab track` and `lab history`:
// its series (experiment, machine, edition of the experiment file,
// scenario, variant, metric) and the commit pair where it happened (the
// last run before and the first at the new level; a run's ID when it
// names no commit). The same step found again after more commits were
// measured has the same Key, so an alert about it is sent once and an
// acknowledgement holds.
type Key struct {
	Experiment, Host, Edition string
	Scenario, Variant, Metric string
	Before, After             string
}

// IDLen is the length of a change point's ID in hex digits.
const IDLen = 12

// ID is the key's short name, the first IDLen hex digits of the SHA-256
// of its fields: what `lab history` prints and `lab history ack` takes.
func (k Key) ID() string {
	h := sha256.New()
	for _, s := range []string{"pgrst-lab change point", k.Experiment, k.Host, k.Edition, k.Scenario, k.Variant, k.Metric, k.Before, k.After} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:IDLen]
}

// Ack is an acknowledgement of a change point (`lab history ack`): it is
// known, it is sent no alert, and the outputs mark it.
type Ack struct {
	Note string
	At   time.Time
}

// keyOf is the key of change c of series s in group g.
func keyOf(experiment string, g *Group, s *Series, c *Change) Key {
	return Key{Experiment: experiment, Host: g.Host, Edition: g.Hash, Scenario: s.Scenario, Variant: s.Variant, Metric: s.Metric.Name,
		Before: pointRef(c.Before), After: pointRef(c.After)}
}

// pointRef is a point's place in a key: its commit, else its run's ID.
func pointRef(p Point) string {
	if p.Commit != "" {
		return p.Commit
	}
	return "run:" + p.ID
}

// Found is a change point with its series and group.
type Found struct {
	Group  *Group
	Series *Series
	Change *Change
}

// Changes are the history's change points, in the order of its groups and
// series.
func (h *History) Changes() []Found {
	var out []Found
	for gi := range h.Groups {
		g := &h.Groups[gi]
		for si := range g.Series {
			s := &g.Series[si]
			for ci := range s.Changes {
				out = append(out, Found{Group: g, Series: s, Change: &s.Changes[ci]})
			}
		}
	}
	return out
}

// Alertable are the change points an alert is about: a regression or an
// improvement (or a change of a metric with no direction) beyond the runs'
// MDE, not acknowledged.
func (h *History) Alertable() []Found {
	var out []Found
	for _, f := range h.Changes() {
		if f.Change.ExceedsMDE && f.Change.Ack == nil {
			out = append(out, f)
		}
	}
	return out
}

// Acknowledge marks the change points whose ID acks holds.
func (h *History) Acknowledge(acks map[string]Ack) {
	for _, f := range h.Changes() {
		if a, ok := acks[f.Change.ID]; ok {
			f.Change.Ack = &a
		}
	}
}

// Find is the change point of the history with this ID.
func (h *History) Find(id string) (Found, bool) {
	for _, f := range h.Changes() {
		if f.Change.ID == id {
			return f, true
		}
	}
	return Found{}, false
}

// FindIn is the change point with this id among the histories of runs,
// which may be of several experiments: each experiment's runs are
// analysed on their own with o (o.Metrics empty: every metric).
func FindIn(runs []Run, id string, o Options) (Found, bool) {
	if len(o.Metrics) == 0 {
		for _, m := range lab.Metrics {
			o.Metrics = append(o.Metrics, m.Name)
		}
	}
	byExp := map[string][]Run{}
	var names []string
	for _, r := range runs {
		if r.Run == nil {
			continue
		}
		n := r.Run.Experiment.Name
		if _, ok := byExp[n]; !ok {
			names = append(names, n)
		}
		byExp[n] = append(byExp[n], r)
	}
	for _, n := range names {
		h, err := Analyse(n, byExp[n], o)
		if err != nil {
			continue
		}
		if f, ok := h.Find(id); ok {
			return f, true
		}
	}
	return Found{}, false
}
