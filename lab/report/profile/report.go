package profile

import (
	"encoding/json"
	"io"
	"regexp"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/profiles"
)

// How many functions and statements the profile sections list.
const (
	topFunctions  = 15
	topChanges    = 15
	topStatements = 12
)

// Report is the profile part of a run's report (profile.json):
// per variant the functions where CPU went, the functions whose share
// changed most against the baseline, GHC runtime statistics, and the SQL
// each variant sent per scenario with the differences.
type Report struct {
	Variants    []Variant            `json:"variants,omitempty"`
	FuncChanges []FuncChanges        `json:"function_changes,omitempty"`
	GHC         []GHCSummary         `json:"ghc,omitempty"`
	GHCNote     string               `json:"ghc_note,omitempty"`
	SQL         []profiles.SQL       `json:"sql,omitempty"`
	SQLChanges  []profiles.SQLChange `json:"sql_changes,omitempty"`
	variants    []profiles.Variant   // for flame graphs and pprof
}

// Variant is one variant's top functions by self and by total share.
type Variant struct {
	Variant string `json:"variant"`
	Trials  int    `json:"trials"`
	Samples int64  `json:"samples"`
	// PerfCPUPerTrial is perf's own CPU per trial in seconds; PerfShare
	// that as a share of the target's and PostgreSQL's CPU in the windows.
	PerfCPUPerTrial float64         `json:"perf_cpu_per_trial"`
	PerfShare       float64         `json:"perf_share"`
	BySelf          []profiles.Func `json:"top_self"`
	ByTotal         []profiles.Func `json:"top_total"`
	// Modules are the Haskell modules by self samples (GHC targets).
	Modules []profiles.Module `json:"top_modules,omitempty"`
	// Unnamed is the services' own code perf could not name (e.g.
	// "[postgresql executable]": a stripped PostgreSQL without debug
	// symbols), left out of BySelf and ByTotal: not a function.
	Unnamed []UnnamedCode `json:"unnamed_code,omitempty"`
}

// UnnamedCode is one executable's code without symbols and its shares.
type UnnamedCode struct {
	Service    string  `json:"service"`
	Frame      string  `json:"frame"`
	SelfShare  float64 `json:"self_share"`
	TotalShare float64 `json:"total_share"`
	Note       string  `json:"note"`
}

// unnamedCode says what the executables' code without symbols is.
func unnamedCode(funcs []profiles.Func) []UnnamedCode {
	var out []UnnamedCode
	for _, f := range profiles.Unnamed(funcs) {
		who := f.Service + "'s"
		if f.Service == "postgresql" {
			who = "PostgreSQL's"
		}
		out = append(out, UnnamedCode{Service: f.Service, Frame: f.Name, SelfShare: f.SelfShare, TotalShare: f.TotalShare,
			Note: who + " own code, not a function: its executable has no symbols perf could read (stripped, and no debug symbols installed), so its functions cannot be named."})
	}
	return out
}

// FuncChanges are one variant's functions that moved most against the baseline.
type FuncChanges struct {
	Variant  string                `json:"variant"`
	Baseline string                `json:"baseline"`
	Changes  []profiles.FuncChange `json:"changes"`
}

// GHCSummary is a variant's GHC runtime statistics over all its trials.
type GHCSummary struct {
	Variant         string  `json:"variant"`
	Trials          int     `json:"trials"`
	AllocPerRequest float64 `json:"alloc_per_request"` // bytes
	GCShare         float64 `json:"gc_share"`          // 0..1
	MaxLiveBytes    int64   `json:"max_live_bytes"`
	MajorGCs        int     `json:"major_gcs"`
	GCs             int     `json:"gcs"`
}

// Of builds the profile report of a run; empty when nothing was profiled.
func Of(run *lab.Run) Report {
	var r Report
	r.variants = profiles.CPU(run)
	var base *profiles.Variant
	for i := range r.variants {
		v := r.variants[i]
		r.Variants = append(r.Variants, Variant{Variant: v.Name, Trials: v.Trials, Samples: v.Samples,
			BySelf: profiles.Top(v.Funcs, topFunctions, false), ByTotal: profiles.Top(v.Funcs, topFunctions, true)})
		pv := &r.Variants[len(r.Variants)-1]
		pv.PerfCPUPerTrial = v.PerfCPUSeconds / float64(v.Trials)
		if v.ServiceCPUSeconds > 0 {
			pv.PerfShare = v.PerfCPUSeconds / v.ServiceCPUSeconds
		}
		pv.Unnamed = unnamedCode(v.Funcs)
		mods := profiles.Modules(v.Funcs)
		r.Variants[len(r.Variants)-1].Modules = mods[:min(topFunctions, len(mods))]
		if v.Baseline || base == nil && i == 0 {
			base = &r.variants[i]
		}
	}
	for _, v := range r.variants {
		if base != nil && v.Name != base.Name {
			r.FuncChanges = append(r.FuncChanges, FuncChanges{Variant: v.Name, Baseline: base.Name, Changes: profiles.Changes(*base, v, topChanges)})
		}
	}
	r.GHC = ghcSummaries(run)
	if run.Experiment.Profile && run.Target.Reference {
		r.GHCNote = "GHC runtime statistics do not apply: the reference server (postgrest-mini) is a Go program."
	}
	r.SQL = profiles.SQLOf(run)
	for _, s := range r.SQL {
		if s.Baseline {
			continue
		}
		for _, b := range r.SQL {
			if b.Baseline && b.Scenario == s.Scenario {
				r.SQLChanges = append(r.SQLChanges, profiles.SQLChanges(b, s)...)
			}
		}
	}
	return r
}

// Empty reports whether there is nothing to show.
func (r Report) Empty() bool {
	return len(r.Variants) == 0 && len(r.GHC) == 0 && r.GHCNote == "" && len(r.SQL) == 0
}

func ghcSummaries(run *lab.Run) []GHCSummary {
	var out []GHCSummary
	for _, vi := range run.Variants {
		g := GHCSummary{Variant: vi.Name}
		var alloc, gc, cpu float64
		var req int64
		for _, t := range run.Trials {
			if t.Variant != vi.Name || t.GHC == nil || t.Error != "" || t.GHC.GCs == 0 {
				continue
			}
			g.Trials++
			alloc += float64(t.GHC.BytesAllocated)
			req += t.WindowRequests() // the window the allocation was counted in
			gc += t.GHC.GCCPUSeconds
			cpu += t.GHC.CPUSeconds
			g.MaxLiveBytes = max(g.MaxLiveBytes, t.GHC.MaxLiveBytes)
			g.MajorGCs += t.GHC.MajorGCs
			g.GCs += t.GHC.GCs
		}
		if g.Trials == 0 {
			continue
		}
		if req > 0 {
			g.AllocPerRequest = alloc / float64(req)
		}
		if cpu > 0 {
			g.GCShare = min(1, gc/cpu)
		}
		out = append(out, g)
	}
	return out
}

// JSON writes profile.json.
func JSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// unsafeName matches what may not be part of a file name.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// fileName turns a variant's name into a safe part of a file name.
func fileName(s string) string {
	s = unsafeName.ReplaceAllString(s, "_")
	if s == "" || s[0] == '.' {
		s = "_" + s
	}
	return s
}
