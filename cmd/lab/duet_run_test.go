package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// duetExperiment has two rounds: the fewest (and the validator's minimum)
// in which the variants swap halves, which is what the test holds.
const duetExperiment = `name = "duet-tiny"
scenarios = ["GETSingle"]
[load]
model = "efficiency"
utilisation = 0.5
duration = "1s"
warmup = "1s"
limit = { min_rate = 500.0, max_rate = 500.0 } # not a capacity test: one search step
[trials]
min = 2
max = 2
order = "duet"
[[variant]]
name = "tcp"
baseline = true
postgrest = { db-uri = "tcp" }
[[variant]]
name = "unix"
postgrest = { db-uri = "unix" }
`

// A duet on the real local stack: the stack's target and its twin serve
// tcp and unix at once, each at half the trial's rate, the variants
// swapping halves every round; each half's database CPU is its own
// backends' (told apart by application_name); both configs are the
// originals afterwards. Real PostgREST under the systemd user manager
// (over D-Bus) and postgrest-mini under the direct supervisor.
func TestDuetRunOnTheStack(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if _, err := os.Stat("/usr/lib/postgresql"); err != nil && os.Getenv("LAB_PG_BINDIR") == "" {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	lab := buildLab(t)
	for _, tg := range labTargets(lab) {
		sup := systemd.ModeDirect
		if !tg.reference {
			sup = systemd.ModeSystemd
		}
		t.Run(tg.name+"/"+string(sup), func(t *testing.T) {
			if sup == systemd.ModeSystemd {
				labtest.RequireSystemd(t)
			}
			dir := labDir(t)
			t.Cleanup(func() {
				if s, err := stack.Open(dir); err == nil {
					_ = s.Down(context.Background(), true)
					s.Close()
				}
			})
			if out, err := runLab(t, append([]string{"stack", "up", "--dir", dir, "--supervisor", string(sup)}, tg.flags(t)...)...); err != nil {
				t.Fatalf("stack up: %v\n%s", err, out)
			}
			duetRun(t, dir)
		})
	}
}

func duetRun(t *testing.T, dir string) {
	conf := filepath.Join(dir, "postgrest.conf")
	before, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	out, resultDir := runExperiment(t, dir, "duet-tiny", duetExperiment)
	run, err := record.ReadDir(resultDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trials) != 4 || len(run.Capacity) != 1 {
		t.Fatalf("%d trials, %d capacities; want 4 (2 rounds x 2 halves) and 1:\n%s", len(run.Trials), len(run.Capacity), out)
	}
	perHalf := run.Capacity[0].Rate / 2
	for _, tr := range run.Trials {
		wantHalf := "a"
		if (tr.Variant == "tcp") != (tr.Rep%2 == 1) {
			wantHalf = "b"
		}
		if tr.Error != "" || tr.Half != wantHalf {
			t.Errorf("trial %d (%s, round %d): half %q, error %q; want half %s (the baseline on a in odd rounds)", tr.Seq, tr.Variant, tr.Rep, tr.Half, tr.Error, wantHalf)
		}
		if tr.Load.AskedRate < perHalf*0.99 || tr.Load.AskedRate > perHalf*1.01 {
			t.Errorf("trial %d: asked %.0f req/s; want half of the trials' rate, %.0f", tr.Seq, tr.Load.AskedRate, perHalf)
		}
		if !(tr.Server.CPUSeconds > 0) || !(tr.Database.CPUSeconds > 0) {
			t.Errorf("trial %d (half %s): server %.3f s, database %.3f s of CPU; want both measured for the half", tr.Seq, tr.Half, tr.Server.CPUSeconds, tr.Database.CPUSeconds)
		}
		if in := tr.Interference; in == nil || !(in.Server > tr.Server.CPUUtil) {
			t.Errorf("trial %d: interference %+v; want both targets' CPU counted as measured work", tr.Seq, in)
		}
	}
	for i := 0; i+1 < len(run.Trials); i += 2 { // the pair ran at once
		a, b := run.Trials[i], run.Trials[i+1]
		if a.Rep != b.Rep || a.Start.After(b.End) || b.Start.After(a.End) {
			t.Errorf("trials %d and %d: rounds %d/%d, %v..%v and %v..%v; want one round, overlapping", a.Seq, b.Seq, a.Rep, b.Rep, a.Start, a.End, b.Start, b.End)
		}
	}
	after, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the target's config was not restored:\n%s\nwant\n%s", after, before)
	}
	twin, err := os.ReadFile(filepath.Join(dir, "twin", "postgrest.conf"))
	if err != nil || strings.Contains(string(twin), "application_name") {
		t.Errorf("the twin's config after the run: %v\n%s\nwant its original, without application_name", err, twin)
	}
	if st, err := runLab(t, "stack", "status", "--dir", dir); err != nil || !strings.Contains(st, "-twin.service  active") {
		t.Errorf("stack status: %v\n%s\nwant the twin, active", err, st)
	}
	if got := run.Experiment.Trials.Order; got != lab.OrderDuet {
		t.Errorf("recorded order %q; want duet", got)
	}
}
