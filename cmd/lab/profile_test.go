package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	profilereport "github.com/pgrst-lab/pgrst-lab/lab/report/profile"
)

// The bundled binaries experiment with --profile, on GETSingle only and
// short trials, against two copies of the target's binary, on the real
// PostgREST and on postgrest-mini: the report has top functions with
// decoded names, flame graphs, pprof profiles, GHC runtime statistics (real
// PostgREST; postgrest-mini says they do not apply) and the SQL per variant.
func TestProfileBinaries(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if _, err := exec.LookPath("perf"); err != nil {
		labtest.Need(t, "perf is not installed (apt-get install linux-perf): %v", err)
	}
	labBin := buildLab(t)
	for _, tg := range labTargets(labBin) {
		t.Run(tg.name, func(t *testing.T) { profileBinaries(t, tg) })
	}
}

func profileBinaries(t *testing.T, tg labTarget) {
	flags := tg.flags(t)
	dir := directStack(t, flags...)
	bins := t.TempDir()
	release := labtest.CopyExecutable(t, flags[1], filepath.Join(bins, "release"))
	branch := labtest.CopyExecutable(t, flags[1], filepath.Join(bins, "branch"))
	src, err := os.ReadFile("../../experiments/binaries.toml")
	if err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(t.TempDir(), "binaries.toml")
	short := regexp.MustCompile(`(?m)^targets = .*$`).ReplaceAll(src, []byte(`scenarios = ["GETSingle"]`))
	// No variant sets server-timing-enabled: --profile turns it on where
	// both builds list it in --dump-config, and the report has the phases.
	if err := os.WriteFile(exp, short, 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	// One rate, no capacity search: what is profiled does not depend on it.
	err = run(ctx, []string{"run", exp, "--binary", "release=" + release, "--binary", "branch=" + branch, "--dir", dir, "--results", results, "--profile",
		"--min-trials", "2", "--max-trials", "2", "--duration", "2s", "--warmup", "1s", "--min-rate", tinyRate, "--max-rate", tinyRate}, &out, &errb)
	if err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), errb.String())
	}
	dirs, _ := filepath.Glob(filepath.Join(results, "binaries", "*"))
	if len(dirs) != 1 {
		t.Fatalf("result dirs %v", dirs)
	}
	res := dirs[0]
	rec, err := record.ReadDir(res)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Experiment.Profile {
		t.Error("run.json: experiment.profile is false")
	}
	if !strings.Contains(out.String(), "server-timing-enabled = true in every variant") {
		t.Errorf("the run does not say it turned Server-Timing on:\n%s", out.String())
	}
	for _, v := range rec.Variants {
		if !strings.Contains(v.Description, "server-timing-enabled = true (set by the lab") {
			t.Errorf("variant %s: description %q does not say the lab set server-timing-enabled", v.Name, v.Description)
		}
	}
	for _, tr := range rec.Trials {
		if tr.Error != "" {
			t.Errorf("trial %d failed: %s", tr.Seq, tr.Error)
		} else if tr.Profile == nil || tr.Profile.Samples == 0 {
			t.Errorf("trial %d: no CPU profile (%+v)", tr.Seq, tr.Profile)
		}
	}
	var pr profilereport.Report
	b, err := os.ReadFile(filepath.Join(res, "profile.json"))
	if err == nil {
		err = json.Unmarshal(b, &pr)
	}
	if err != nil {
		t.Fatalf("profile.json: %v", err)
	}
	checkTopFunctions(t, pr, tg.reference)
	checkFlamesAndPprof(t, res, pr, tg.reference)
	checkGHC(t, res, pr, tg.reference)
	checkSQL(t, pr)
	checkPhases(t, rec.Trials, postgrest.PhaseClock(rec.Target.Version))
	md, _ := os.ReadFile(filepath.Join(res, "report.md"))
	for _, want := range []string{"## CPU profile", "### Functions whose share changed most: branch vs release", "## GHC runtime", "## SQL per variant",
		"Where the server's time goes (Server-Timing"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// checkTopFunctions: both variants have top functions with decoded
// names: Haskell modules of PostgREST or Hasql, Go functions of the
// reference server.
func checkTopFunctions(t *testing.T, pr profilereport.Report, reference bool) {
	t.Helper()
	if len(pr.Variants) != 2 || len(pr.FuncChanges) != 1 {
		t.Fatalf("profile.json: %d variants, %d change lists", len(pr.Variants), len(pr.FuncChanges))
	}
	want := regexp.MustCompile(`^(PostgREST|Hasql)\.`)
	if reference {
		want = regexp.MustCompile(`^(runtime|github\.com/valyala/fasthttp|github\.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini)[./]`)
	}
	for _, v := range pr.Variants {
		names := topNames(v)
		found := false
		for _, n := range names {
			found = found || want.MatchString(n)
			if strings.Contains(n, "zi") && strings.HasSuffix(n, "_info") {
				t.Errorf("%s: z-encoded name left: %s", v.Variant, n)
			}
		}
		if !found {
			t.Errorf("%s: no top function or module matches %v: %v", v.Variant, want, names)
		}
		var top []string
		for _, f := range v.BySelf[:min(8, len(v.BySelf))] {
			top = append(top, fmt.Sprintf("%s %.1f%%", f.Name, 100*f.SelfShare))
		}
		for _, m := range v.Modules[:min(4, len(v.Modules))] {
			top = append(top, fmt.Sprintf("module %s %.1f%%", m.Module, 100*m.SelfShare))
		}
		t.Logf("%s: by self: %s", v.Variant, strings.Join(top, "; "))
		t.Logf("%s: %d samples; perf's own CPU %.3f s per trial, %.1f%% of the services'; top self %s %.1f%%", v.Variant, v.Samples,
			v.PerfCPUPerTrial, 100*v.PerfShare, v.BySelf[0].Name, 100*v.BySelf[0].SelfShare)
		if v.PerfShare < 0 || v.PerfShare > 0.5 {
			t.Errorf("%s: perf's own CPU %.3f s per trial, %.1f%% of the services'", v.Variant, v.PerfCPUPerTrial, 100*v.PerfShare)
		}
		if v.Samples <= 0 || len(v.BySelf) == 0 || v.BySelf[0].SelfShare <= 0 || v.BySelf[0].SelfShare > 1 {
			t.Errorf("%s: %d samples, top %+v", v.Variant, v.Samples, v.BySelf)
		}
	}
}

// topNames are the names of the top functions and modules ("Module.").
func topNames(v profilereport.Variant) []string {
	var out []string
	for _, f := range append(v.BySelf, v.ByTotal...) {
		out = append(out, f.Name)
	}
	for _, m := range v.Modules {
		out = append(out, m.Module+".")
	}
	return out
}

func checkFlamesAndPprof(t *testing.T, res string, pr profilereport.Report, reference bool) {
	t.Helper()
	html, _ := os.ReadFile(filepath.Join(res, "report.html"))
	if n := strings.Count(string(html), `<svg class="flame"`); n != 2 {
		t.Errorf("report.html has %d flame graphs, want 2", n)
	}
	if strings.Contains(string(html), "<script") {
		t.Error("report.html has a script")
	}
	for _, v := range pr.Variants {
		svg, err := os.ReadFile(filepath.Join(res, "flame-"+v.Variant+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<rect")) {
			t.Errorf("flame-%s.svg: %v", v.Variant, err)
		}
		f, err := os.Open(filepath.Join(res, "profile-"+v.Variant+".pb.gz"))
		if err != nil {
			t.Error(err)
			continue
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil {
			t.Errorf("profile-%s.pb.gz: %v", v.Variant, err)
			continue
		}
		var n int64
		for _, s := range p.Sample {
			n += s.Value[0]
		}
		if n != v.Samples {
			t.Errorf("profile-%s.pb.gz: %d samples, profile.json %d", v.Variant, n, v.Samples)
		}
		if !reference {
			checkResolved(t, v.Variant, p)
		}
	}
}

// checkResolved: perf leaves about a third of PostgREST's samples as bare
// addresses in its executable (GHC code under symbols perf does not use);
// the lab names them from the ELF symbol table, so that few samples stay
// "[postgrest executable]".
func checkResolved(t *testing.T, variant string, p *profile.Profile) {
	t.Helper()
	var own, unresolved int64
	for _, s := range p.Sample {
		if len(s.Location) < 2 || s.Location[len(s.Location)-1].Line[0].Function.Name != "postgrest" {
			continue
		}
		own += s.Value[0]
		if s.Location[0].Line[0].Function.Name == "[postgrest executable]" {
			unresolved += s.Value[0]
		}
	}
	if own == 0 {
		t.Errorf("%s: no sample of postgrest", variant)
		return
	}
	share := float64(unresolved) / float64(own)
	t.Logf("%s: %d of postgrest's %d samples (%.1f%%) unresolved in its executable", variant, unresolved, own, 100*share)
	if share > 0.02 {
		t.Errorf("%s: %.1f%% of postgrest's samples unresolved in its executable, want < 2%%", variant, 100*share)
	}
}

// checkGHC: real PostgREST has plausible GC statistics per variant and in
// the verdicts; postgrest-mini says they do not apply.
func checkGHC(t *testing.T, res string, pr profilereport.Report, reference bool) {
	t.Helper()
	verdicts, _ := os.ReadFile(filepath.Join(res, "verdicts.json"))
	hasRow := bytes.Contains(verdicts, []byte(`"metric": "ghc_alloc"`)) || bytes.Contains(verdicts, []byte(`"metric":"ghc_alloc"`))
	if reference {
		if pr.GHCNote == "" || len(pr.GHC) != 0 || hasRow {
			t.Errorf("postgrest-mini: GHC note %q, %d GHC summaries, verdict row %v", pr.GHCNote, len(pr.GHC), hasRow)
		}
		return
	}
	if len(pr.GHC) != 2 || !hasRow {
		t.Fatalf("GHC summaries %+v, verdict row %v", pr.GHC, hasRow)
	}
	for _, g := range pr.GHC {
		t.Logf("%s: GHC %.0f bytes allocated per request, GC %.2f%% of CPU, max live %d bytes, %d major of %d GCs",
			g.Variant, g.AllocPerRequest, 100*g.GCShare, g.MaxLiveBytes, g.MajorGCs, g.GCs)
		if !(g.AllocPerRequest > 1000) || !(g.GCShare > 0 && g.GCShare < 1) || g.MaxLiveBytes <= 0 || g.GCs <= 0 {
			t.Errorf("%s: implausible GHC statistics %+v", g.Variant, g)
		}
	}
	for _, m := range lab.GHCMetrics {
		if !bytes.Contains(verdicts, []byte(m.Name)) {
			t.Errorf("verdicts.json lacks %s", m.Name)
		}
	}
}

// checkSQL: GETSingle sends one to three statements per request, the
// same in both variants.
func checkSQL(t *testing.T, pr profilereport.Report) {
	t.Helper()
	if len(pr.SQL) != 2 {
		t.Fatalf("SQL per variant: %+v", pr.SQL)
	}
	for _, s := range pr.SQL {
		t.Logf("%s/%s: %.2f statements per request over %d requests", s.Scenario, s.Variant, s.CallsPerRequest(), s.Requests)
		// At most begin, set_config, the query and rollback (binaries'
		// variants end transactions with db-tx-end = rollback-allow-override).
		if c := s.CallsPerRequest(); c < 0.95 || c > 4.1 || s.Requests == 0 {
			t.Errorf("%s/%s: %.2f statements per request over %d requests: %+v", s.Scenario, s.Variant, c, s.Requests, s.Statements)
		}
	}
	for _, c := range pr.SQLChanges {
		if c.Kind != "" {
			t.Errorf("the same binary twice, yet a SQL difference: %+v", c)
		}
	}
}

// checkPhases: every trial carries the Server-Timing phases, and their sum
// is plausible against what else the trial measured. postgrest-mini and
// PostgREST from 14.2 time the phases on the wall clock: their sum is part
// of the request, at most its latency. PostgREST before 14.2 (13.0.8)
// times them with the process's CPU clock (PostgREST#4522): a sum of CPU
// time over a request's phases is at most the machine's CPUs times the
// request's latency, and above zero.
func checkPhases(t *testing.T, trials []lab.Trial, clock string) {
	t.Helper()
	for _, tr := range trials {
		st := tr.Load.ServerTiming
		if st == nil || st.Requests == 0 || len(st.Phases) != len(lab.PhaseNames) {
			t.Errorf("trial %d: no Server-Timing phases: %+v", tr.Seq, st)
			continue
		}
		var sum float64
		for _, ph := range st.Phases {
			sum += ph.MeanMs
		}
		lat := tr.Load.LatencyMs.Mean
		// Each phase is written rounded to 0.1 ms: five can add 0.25 ms.
		limit := 1.1*lat + 0.25
		if clock != postgrest.ClockWall {
			limit = float64(runtime.NumCPU())*lat*1.1 + 0.25
		}
		t.Logf("trial %d: phases sum to %.3f ms (header total %.3f ms) of a %.3f ms mean latency", tr.Seq, sum, st.Total.MeanMs, lat)
		if !(sum > 0) || sum > limit || math.Abs(st.Total.MeanMs-sum) > 0.1*sum+0.05 {
			t.Errorf("trial %d: phases sum to %.3f ms (total %.3f), latency %.3f ms: want in (0, %.3f] and the total within 10%% of the sum",
				tr.Seq, sum, st.Total.MeanMs, lat, limit)
		}
	}
}
