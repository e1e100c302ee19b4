package history

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Run is one run of the experiment: its record, an ID for people (the
// results directory's name, or the store's id) and Ref, where its report
// is (a results directory, or a report's URL).
type Run struct {
	ID, Ref string
	Run     *lab.Run
}

// HeadlineMetrics are the metrics a history shows by default: throughput,
// p99 latency and server + database CPU per request.
var HeadlineMetrics = []string{"rate", "p99", "cpu"}

// Options say how to build a history. The zero value orders automatically
// and shows the headline metrics.
type Options struct {
	By Order
	// Commits is the repository's commits in git's topological order,
	// oldest first (`git rev-list --topo-order --reverse HEAD`); with
	// ByCommit, runs are placed in it and runs of other commits are set
	// apart. Empty: commits in the order they were first measured.
	Commits []string
	// Repo names the repository Commits came from, for the output.
	Repo string
	// Host keeps only the runs of this machine (its HostID or hostname).
	Host string
	// Metrics are lab.Metric names; empty means HeadlineMetrics.
	Metrics []string
	// Alpha is the significance level of the MDE (0: the runs' own).
	Alpha float64
	// Detect are the change point detector's options (zero: defaults).
	Detect cpOptions
}

// Entry is a run in its place in the order.
type Entry struct {
	Run
	// Pos is the run's position in its group (the x of the charts).
	Pos             int
	Commit, Version string
	Started         time.Time
	Host            string // HostID, else hostname
	Hostname        string
	Hash            string // experiment hash ("" when the record has none)
}

// Label is the run's name on an axis: its short commit, version or date.
func (e Entry) Label(by Order) string {
	switch {
	case by == ByCommit && e.Commit != "":
		return ShortCommit(e.Commit)
	case by == ByVersion && e.Version != "":
		return format.Clip(e.Version, 24)
	}
	return e.Started.UTC().Format("2006-01-02 15:04")
}

// Point is one run's value of a series.
type Point struct {
	Entry
	// I is the point's index in its series.
	I              int
	Median, Lo, Hi float64 // Lo, Hi: the 95 % interval (±Inf when too few trials)
	N              int
	// MDEPct is the minimum detectable effect in percent (+Inf when unknown).
	MDEPct float64
}

// SpreadPct is the interval's half-width in percent of the median.
func (p Point) SpreadPct() float64 {
	return stats.Summary{Median: p.Median, Lo: p.Lo, Hi: p.Hi, N: p.N}.SpreadPct()
}

// Series is one scenario × variant × metric of a group.
type Series struct {
	Scenario, Variant string
	Metric            lab.Metric
	Points            []Point
	Changes           []Change
}

// Name is "scenario / variant / metric label".
func (s *Series) Name() string { return s.Scenario + " / " + s.Variant + " / " + s.Metric.Label }

// Change is a change point of a series.
type Change struct {
	// Index is the first point at the new level; Before is the last point
	// before it, After the first at the new level: the change happened in
	// Before's commit (exclusive) .. After's commit (inclusive).
	Index         int
	Before, After Point
	// From and To are the levels (means of the medians) of the segments.
	From, To float64
	// Pct is the change in percent with its interval LoPct..HiPct; P its
	// p-value.
	Pct, LoPct, HiPct, P float64
	// MDEPct is the typical MDE of the runs around the change (the median
	// over the segments either side, at most mdeWindow runs each), and
	// ExceedsMDE says |Pct| is larger: smaller changes are below what the
	// runs can resolve one against another.
	MDEPct     float64
	ExceedsMDE bool
	// Outcome is Better, Worse or Changed (a metric with no direction), or
	// NotComparable for a Server-Timing series whose runs either side time
	// the phases differently (Note says how: lab.PhasesNotComparable).
	Outcome stats.Outcome
	Note    string
	// Key names the change point across runs (its series and commit
	// pair), ID is Key.ID(); Ack is its acknowledgement, nil when none
	// (History.Acknowledge sets it).
	Key Key
	ID  string
	Ack *Ack
}

// mdeWindow bounds the runs either side of a change point whose MDE
// makes its typical MDE.
const mdeWindow = 5

// Group is the runs of one machine and one edition of the experiment
// file, in order, with their series. Different machines and editions are
// never mixed in a series.
type Group struct {
	Host, Hostname string
	Hash           string
	Runs           []Entry
	Series         []Series
	// Current says the group holds its machine's newest run (the one
	// --gate judges).
	Current bool
}

// History is an experiment's runs as series with their change points.
type History struct {
	Experiment string
	By         Order
	Repo       string
	Alpha      float64
	Metrics    []lab.Metric
	Groups     []Group
	// Apart are runs left out of the order: with git's order, runs whose
	// commit the repository does not have (or that name none).
	Apart    []Entry
	Warnings []string
	Runs     int // runs kept (after --host)
}

// Analyse builds the history of runs (of one experiment).
func Analyse(experiment string, runs []Run, o Options) (*History, error) {
	h := &History{Experiment: experiment, Repo: o.Repo}
	names := o.Metrics
	if len(names) == 0 {
		names = HeadlineMetrics
	}
	for _, n := range names {
		m, ok := lab.MetricByName(n)
		if !ok {
			return nil, fmt.Errorf("history: unknown metric %q", n)
		}
		h.Metrics = append(h.Metrics, m)
	}
	var entries []Entry
	for _, r := range runs {
		if r.Run == nil {
			continue
		}
		e := entryOf(r)
		if o.Host != "" && e.Host != o.Host && e.Hostname != o.Host {
			continue
		}
		entries = append(entries, e)
	}
	h.Runs = len(entries)
	if len(entries) == 0 {
		if o.Host != "" {
			return nil, fmt.Errorf("history: no runs of %s on host %q", experiment, o.Host)
		}
		return nil, fmt.Errorf("history: no runs of %s", experiment)
	}
	h.Alpha = stats.AlphaFor(entries[0].Run.Run, o.Alpha)
	h.By = resolveOrder(o.By, entries, len(o.Commits) > 0)

	// Per machine: order all its runs, then split by edition.
	byHost := map[string][]Entry{}
	var hosts []string
	for _, e := range entries {
		if _, ok := byHost[e.Host]; !ok {
			hosts = append(hosts, e.Host)
		}
		byHost[e.Host] = append(byHost[e.Host], e)
	}
	sort.Strings(hosts)
	if len(hosts) > 1 && o.Host == "" {
		var hs []string
		for _, k := range hosts {
			hs = append(hs, byHost[k][0].Hostname)
		}
		h.Warnings = append(h.Warnings, fmt.Sprintf("runs from %d machines (%s): one series per machine; --host H shows one",
			len(hosts), strings.Join(hs, ", ")))
	}
	for _, host := range hosts {
		ordered, apart, warn := order(byHost[host], h.By, o.Commits)
		h.Apart = append(h.Apart, apart...)
		h.Warnings = append(h.Warnings, warn...)
		if len(ordered) == 0 {
			continue
		}
		newest := ordered[len(ordered)-1].Hash
		var hashes []string
		edition := map[string][]Entry{}
		for _, e := range ordered {
			if _, ok := edition[e.Hash]; !ok {
				hashes = append(hashes, e.Hash)
			}
			edition[e.Hash] = append(edition[e.Hash], e)
		}
		if len(hashes) > 1 {
			var hs []string
			for _, x := range hashes {
				hs = append(hs, fmt.Sprintf("%s (%d runs)", hashLabel(x), len(edition[x])))
			}
			h.Warnings = append(h.Warnings, fmt.Sprintf("%s: the experiment file was edited between runs: %d editions %s; "+
				"series are split by edition and change points are found within one", ordered[0].Hostname, len(hashes), strings.Join(hs, ", ")))
		}
		for _, x := range hashes {
			g := Group{Host: host, Hostname: edition[x][0].Hostname, Hash: x, Runs: edition[x], Current: x == newest}
			for i := range g.Runs {
				g.Runs[i].Pos = i
			}
			g.Series = seriesOf(g.Runs, h.Metrics, o)
			for si := range g.Series {
				s := &g.Series[si]
				for ci := range s.Changes {
					c := &s.Changes[ci]
					c.Key = keyOf(experiment, &g, s, c)
					c.ID = c.Key.ID()
				}
			}
			h.Groups = append(h.Groups, g)
		}
	}
	return h, nil
}

// entryOf reads a run's identity: the build it measured (its baseline
// variant's, lab.MeasuredBuild), machine and experiment edition.
func entryOf(r Run) Entry {
	run := r.Run
	e := Entry{Run: r, Started: run.Started, Hostname: run.Host.Hostname, Host: run.Host.HostID, Hash: run.ExperimentHash}
	if e.Host == "" {
		e.Host = run.Host.Hostname
	}
	name := stats.BaselineName(run)
	if HasVariant(run, lab.TrackedVariant) { // lab track's, also beside a reference
		name = lab.TrackedVariant
	}
	b := lab.MeasuredBuild(run, name)
	e.Commit, e.Version = strings.TrimSpace(b.Commit), strings.TrimSpace(b.Version)
	return e
}

// seriesOf builds the series of a group's runs: every scenario × variant
// × metric with a value in some run, in the runs' order of scenarios and
// variants.
func seriesOf(runs []Entry, metrics []lab.Metric, o Options) []Series {
	type key struct{ sc, v string }
	var keys []key
	seen := map[key]bool{}
	for _, e := range runs {
		for _, sc := range stats.ScenarioNames(e.Run.Run) {
			for _, v := range stats.VariantNames(e.Run.Run) {
				k := key{sc, v}
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			if k := (key{sc, RelativeVariant}); AgainstReference(e.Run.Run) && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	// Scenario first, as the reports group.
	first := map[string]int{}
	for i, k := range keys {
		if _, ok := first[k.sc]; !ok {
			first[k.sc] = i
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return first[keys[i].sc] < first[keys[j].sc] })
	var out []Series
	for _, k := range keys {
		for _, m := range metrics {
			s := Series{Scenario: k.sc, Variant: k.v, Metric: m}
			for _, e := range runs {
				if p, ok := pointOf(e, k.sc, k.v, m, o.Alpha); ok {
					p.I = len(s.Points)
					s.Points = append(s.Points, p)
				}
			}
			if len(s.Points) == 0 {
				continue
			}
			if k.v != RelativeVariant && beside(runs) {
				// Both builds' own series move with the machine; the
				// ratio does not: its change points are the ones.
				out = append(out, s)
				continue
			}
			s.Changes = changesOf(s.Points, m, o.Detect)
			for i := range s.Changes {
				c := &s.Changes[i]
				if note := phasesNote(m, k.v, c.Before, c.After); note != "" {
					c.Outcome, c.Note = stats.NotComparable, note
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// pointOf is a run's median of one cell with its interval and MDE.
func pointOf(e Entry, sc, variant string, m lab.Metric, alpha float64) (Point, bool) {
	if variant == RelativeVariant {
		return relativePoint(e, sc, m, alpha)
	}
	var vs []float64
	for _, t := range stats.TrialsOf(e.Run.Run, variant, sc) {
		if t.Error != "" {
			continue
		}
		if v, ok := m.Of(t); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			vs = append(vs, v)
		}
	}
	return pointFrom(e, vs, alpha, false)
}

// pointFrom is a run's point of values vs (trials' values, or per-round
// ratios when paired): their median, its interval and the MDE; false
// without any value.
func pointFrom(e Entry, vs []float64, alpha float64, paired bool) (Point, bool) {
	if len(vs) == 0 {
		return Point{}, false
	}
	s, _ := stats.Summarize(vs)
	a := stats.AlphaFor(e.Run.Run, alpha)
	return Point{Entry: e, Median: s.Median, Lo: s.Lo, Hi: s.Hi, N: s.N, MDEPct: stats.MDEPct(logSD(vs), len(vs), a, paired)}, true
}

// logSD is the standard deviation of the logs of xs: the relative noise
// of one run's trials (NaN when fewer than two are positive).
func logSD(xs []float64) float64 {
	var ls []float64
	for _, x := range xs {
		if x > 0 {
			ls = append(ls, math.Log(x))
		}
	}
	if len(ls) < 2 {
		return math.NaN()
	}
	m := mean(ls)
	return math.Sqrt(ssq(ls, m) / float64(len(ls)-1))
}

// changesOf finds the change points of a series' medians.
func changesOf(ps []Point, m lab.Metric, o cpOptions) []Change {
	xs := make([]float64, len(ps))
	for i, p := range ps {
		xs[i] = p.Median
	}
	cps := detect(xs, o)
	var out []Change
	for j, cp := range cps {
		if cp.Index <= 0 || cp.Index >= len(ps) {
			continue
		}
		c := Change{Index: cp.Index, Before: ps[cp.Index-1], After: ps[cp.Index], From: cp.Before, To: cp.After,
			Pct: 100 * cp.Change, LoPct: 100 * cp.CILow, HiPct: 100 * cp.CIHigh, P: cp.P}
		lo, hi := 0, len(ps)
		if j > 0 {
			lo = cps[j-1].Index
		}
		if j+1 < len(cps) {
			hi = cps[j+1].Index
		}
		lo, hi = max(lo, cp.Index-mdeWindow), min(hi, cp.Index+mdeWindow)
		var mdes []float64
		for _, p := range ps[lo:hi] {
			if !math.IsInf(p.MDEPct, 0) && !math.IsNaN(p.MDEPct) {
				mdes = append(mdes, p.MDEPct)
			}
		}
		c.MDEPct = math.Inf(1)
		if len(mdes) > 0 {
			c.MDEPct = stats.Median(mdes)
		}
		c.ExceedsMDE = math.Abs(c.Pct) > c.MDEPct
		c.Outcome = direction(m, c.Pct)
		out = append(out, c)
	}
	return out
}

// phasesNote says why a Server-Timing metric (st_*) of variant does not
// compare between the runs of points a and b (CPU time before PostgREST
// 14.2, wall clock from 14.2), or "" when it does or m is another metric.
func phasesNote(m lab.Metric, variant string, a, b Point) string {
	if !strings.HasPrefix(m.Name, lab.PhasePrefix) {
		return ""
	}
	return lab.PhasesNotComparable(a.Run.Run, variant, b.Run.Run, variant)
}

// direction is what a change of pct means for metric m.
func direction(m lab.Metric, pct float64) stats.Outcome {
	switch {
	case m.Better == 0:
		return stats.Changed
	case (pct > 0) == (m.Better > 0):
		return stats.Better
	}
	return stats.Worse
}

// ShortCommit is a commit as the reports name it: a hash's first seven
// digits, anything else clipped to 12 runes.
func ShortCommit(c string) string {
	if len(c) > 7 && isHex(c) {
		return c[:7]
	}
	return format.Clip(c, 12)
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return s != ""
}

func hashLabel(h string) string {
	if h == "" {
		return "(no hash)"
	}
	return format.Clip(h, 12)
}
