package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// poolSizeRun is a synthetic run shaped like `lab run pool-size` on real
// PostgREST: six variants (db-pool 1..50, baseline 10), two scenarios,
// noisy enough that many medians are flagged, pool metrics scraped, a
// failed trial and an event with a long kernel message.
func poolSizeRun() *lab.Run {
	pools := []int{1, 2, 5, 10, 20, 50}
	var vs []statstest.Variant
	for _, p := range pools {
		f := 1 - 0.3/float64(p)
		vs = append(vs, statstest.Variant{Name: fmt.Sprintf("pool-%d", p), Baseline: p == 10, Rate: 2400 * f, P50Ms: 18 / f,
			ServerUs: 450, DBUs: 330 / f, RSSMB: 48 + float64(p)/10,
			Changes: []lab.Change{{Where: "postgrest", Key: "db-pool", From: "10", To: fmt.Sprint(p)}}})
	}
	run := statstest.Run(statstest.Spec{Experiment: "pool-size", Scenarios: []string{"GETSingle", "GETAllEmbed"}, Trials: 8,
		Noise: 0.12, Drift: 0.05, Seed: 7, Variants: vs, Detail: true})
	run.Experiment.Title = "db-pool sweep: 1, 2, 5, 10, 20, 50"
	run.Experiment.Description = "Throughput and latency against PostgREST's connection pool size, under 50 concurrent connections: " +
		"which pool size should I use on this machine, and what does each step buy?"
	run.Interrupted = "interrupted (Ctrl-C) after round 8 of 8, while the pool-50 variant of GETAllEmbed was being restored to its original configuration"
	run.Target = lab.TargetInfo{Binary: "/work/shared/postgrest/postgrest", Version: "PostgREST 13.0.8", Supervisor: "direct",
		URL: "http://127.0.0.1:3000"}
	for i := range run.Trials {
		t := &run.Trials[i]
		var p int
		fmt.Sscanf(t.Variant, "pool-%d", &p)
		t.DB.Pool = &lab.PoolStats{Size: p, MaxInUse: p, MaxWaiting: (50 - p) * (1 + t.Rep%3), MaxGauge: 50, Scrapes: 20}
		if t.Variant == "pool-1" && t.Rep == 2 {
			t.Error = "not ready after 30s: the target answered 503 to /ready for the whole gate (PostgreSQL was restarting)"
		}
		if t.Variant == "pool-50" && t.Rep == 4 {
			t.Events = append(t.Events, lab.Event{T: t.Start.Add(3 * time.Second), Kind: lab.EventOOMKill, Source: "postgresql", Variant: t.Variant, Trial: t.Seq,
				Detail: "Out of memory: Killed process 31337 (postgres) total-vm:912345kB, anon-rss:812345kB, file-rss:1234kB, shmem-rss:4321kB, UID:116 pgtables:1234kB oom_score_adj:0"})
		}
	}
	run.Variants[0].Binary, run.Variants[0].Version = "/work/shared/postgrest/postgrest", "PostgREST 13.0.8"
	return run
}

// #16: the pool-size report's Markdown fits 120 columns, its noise
// warnings are marks in the cells (one legend), and the verdict comes first.
func TestMarkdownFits120ColumnsWithManyVariants(t *testing.T) {
	run := poolSizeRun()
	v := stats.Compare(run, 0.05)
	if len(v.Variants) != 5 {
		t.Fatalf("variants %v", v.Variants)
	}
	var b bytes.Buffer
	if err := report.Markdown(&b, run, v); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for i, line := range strings.Split(md, "\n") {
		if n := utf8.RuneCountInString(line); n > format.MarkdownWidth {
			t.Errorf("line %d has %d runes (> %d): %s", i+1, n, format.MarkdownWidth, line)
		}
	}
	noise := 0
	for _, r := range v.Rows {
		noise += len(r.Noise)
	}
	if noise < 10 {
		t.Fatalf("the synthetic run has %d noise warnings; the test needs many", noise)
	}
	if strings.Contains(md, "is noisy") {
		t.Errorf("report.md lists noise warnings instead of marking cells")
	}
	if n := strings.Count(md, "! after a figure: its median"); n != 1 {
		t.Errorf("noise legend %d times, want once", n)
	}
	if !strings.Contains(md, "±") || !strings.Contains(md, "%!") {
		t.Errorf("no noisy cell is marked")
	}
	verdict, setup := strings.Index(md, "## Verdict"), strings.Index(md, "## Setup")
	if verdict < 0 || setup < verdict {
		t.Errorf("verdict at %d, setup at %d: the verdict must come first", verdict, setup)
	}
	// The verdict section is short: one table row per comparison.
	section := md[verdict:setup]
	if n := strings.Count(section, "\n"); n > 2*len(v.Headlines())+12 {
		t.Errorf("verdict section has %d lines for %d comparisons:\n%s", n, len(v.Headlines()), section)
	}
	for _, want := range []string{"pool-1", "pool-50", "PostgREST 13.0.8", "Out of memory", "not ready after 30s", "waiting for a pool connection"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}
