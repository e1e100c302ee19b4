package stats

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// MemoryRow is one variant with a memory limit (a MemoryMax= drop-in) in
// one scenario: how often the kernel's OOM killer killed the target, its
// peak memory where it was not killed, and how long it took to come back.
type MemoryRow struct {
	Variant  string
	Limit    string // MemoryMax= as written
	Bytes    uint64 // the limit in bytes (0: infinity)
	Trials   int
	OOMKills int // trials that ended in an OOM kill
	// Failed counts the trials that failed otherwise (the target did not
	// become ready under the limit, or crashed): a limit with any is no
	// floor either.
	Failed int
	// PeakRSS is the target's highest resident memory in the trials it
	// survived (0 when it survived none), PeakCgroup the most memory
	// charged to its cgroup in them (lab.Usage.PeakCgroup: what the limit
	// holds; RSS also counts file pages the limit does not, so it can
	// read above the limit). 0 when unknown.
	PeakRSS, PeakCgroup uint64
	// FirstByteMs and LastByteMs are the medians over those trials of
	// the answers' P50 time to the first byte and to the last (the
	// latency), 0 when unknown.
	FirstByteMs, LastByteMs float64
	// Recovery is the median time from the restart after an OOM kill
	// until the target answered ready (the next trial's apply), 0 when
	// none followed one.
	Recovery time.Duration
}

// MemoryFloor is a scenario's memory table and the smallest limit at
// which the target ran every trial without an OOM kill or another
// failure, every larger limit too ("" when none).
type MemoryFloor struct {
	Scenario string
	Rows     []MemoryRow // by limit, smallest first
	Floor    string
}

// MemoryFloors is the memory table of every scenario of a run whose
// variants set MemoryMax= (a sweep over dropin.MemoryMax); nil when fewer
// than two variants do.
func MemoryFloors(run *lab.Run) []MemoryFloor {
	limits := map[string]string{}
	for _, v := range run.Variants {
		for _, c := range v.Changes {
			if c.Where == "dropin" && c.Key == "MemoryMax" {
				limits[v.Name] = c.To
			}
		}
	}
	if len(limits) < 2 {
		return nil
	}
	var out []MemoryFloor
	for _, sc := range ScenarioNames(run) {
		f := MemoryFloor{Scenario: sc}
		for _, name := range VariantNames(run) {
			lim, ok := limits[name]
			if !ok {
				continue
			}
			f.Rows = append(f.Rows, memoryRow(run, name, sc, lim))
		}
		slices.SortFunc(f.Rows, func(a, b MemoryRow) int { return cmp.Compare(limitOrder(a.Bytes), limitOrder(b.Bytes)) })
		for i := len(f.Rows) - 1; i >= 0 && f.Rows[i].OOMKills == 0 && f.Rows[i].Failed == 0 && f.Rows[i].Trials > 0; i-- {
			f.Floor = f.Rows[i].Limit
		}
		out = append(out, f)
	}
	return out
}

func limitOrder(b uint64) float64 {
	if b == 0 {
		return math.Inf(1)
	}
	return float64(b)
}

func memoryRow(run *lab.Run, variant, scenario, limit string) MemoryRow {
	r := MemoryRow{Variant: variant, Limit: limit, Bytes: ParseMemory(limit)}
	trials := TrialsOf(run, variant, scenario)
	var recovery, first, last []float64
	for i, t := range trials {
		r.Trials++
		if !oomKilled(t) {
			if t.Failed() {
				r.Failed++
				continue
			}
			r.PeakRSS = max(r.PeakRSS, t.Server.PeakRSS)
			r.PeakCgroup = max(r.PeakCgroup, t.Server.PeakCgroup)
			if t.Load.Succeeded() > 0 {
				last = append(last, t.Load.LatencyMs.P50)
				if f := t.Load.FirstByteMs; f != nil {
					first = append(first, f.P50)
				}
			}
			continue
		}
		r.OOMKills++
		if i+1 < len(trials) && trials[i+1].ReadyAfter > 0 {
			recovery = append(recovery, float64(trials[i+1].ReadyAfter))
		}
	}
	if len(recovery) > 0 {
		r.Recovery = time.Duration(Median(recovery))
	}
	if len(first) > 0 {
		r.FirstByteMs = Median(first)
	}
	if len(last) > 0 {
		r.LastByteMs = Median(last)
	}
	return r
}

// oomKilled reports whether the trial ended in an OOM kill of the target.
func oomKilled(t lab.Trial) bool {
	for _, e := range t.Events {
		if e.Kind == lab.EventOOMKill && e.Source == "postgrest" {
			return true
		}
	}
	return strings.Contains(strings.ToLower(t.Error), "oom")
}

// ParseMemory reads a systemd memory size (bytes, or K, M, G, T: powers
// of 1024); 0 for "infinity" or what it cannot read.
func ParseMemory(s string) uint64 {
	s = strings.TrimSpace(s)
	mult := uint64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		case 'T', 't':
			mult = 1 << 40
		}
		if mult > 1 {
			s = s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) {
		return 0
	}
	return uint64(v * float64(mult))
}
