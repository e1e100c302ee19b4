package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/profile"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// profiledRun is the report fixture with profiles: every trial has a CPU
// profile, GHC statistics and statements; "unix" spends more in
// escapeIdent and sends one more statement per request than the baseline.
func profiledRun() *lab.Run {
	run := fixtureRun("closed")
	run.Experiment.Profile = true
	for i := range run.Trials {
		t := &run.Trials[i]
		esc := int64(300)
		sql := []lab.Statement{
			{Query: "select set_config('search_path', $1, true)", Calls: t.Load.Requests, TotalMs: 0.02 * float64(t.Load.Requests)},
			{Query: `WITH pgrst_source AS ( SELECT "public"."artist".* FROM "public"."artist" WHERE "artist_id" = $1 ) SELECT ...`, Calls: t.Load.Requests, TotalMs: 0.1 * float64(t.Load.Requests)},
		}
		if t.Variant == "unix" {
			esc = 500
			sql = append(sql, lab.Statement{Query: "SELECT pg_catalog.extra_query_per_request()", Calls: t.Load.Requests, TotalMs: 0.05 * float64(t.Load.Requests)})
		}
		t.Profile = &lab.CPUProfile{Samples: 1120 + esc, PeriodNs: 2004008, PerfCPUSeconds: 0.05, Stacks: []lab.Stack{
			{Frames: []string{"postgrest", "[postgrest executable]", "PostgREST.App.postgrestResponse", "PostgREST.Query.SqlFragment.$wescapeIdent"}, Count: esc},
			{Frames: []string{"postgrest", "[postgrest executable]", "Hasql.Decoders.All.$wsingleRow"}, Count: 200},
			{Frames: []string{"postgrest", "[postgrest executable]", "evacuate1"}, Count: 150},
			{Frames: []string{"postgrest", "entry_SYSCALL_64", "do_syscall_64", "tcp_sendmsg"}, Count: 100},
			{Frames: []string{"postgresql", "main", "PostmasterMain", "PostgresMain", "exec_execute_message", "ExecutorRun", "heapgetpage"}, Count: 350},
			{Frames: []string{"postgresql", "main", "PostmasterMain", "PostgresMain", "pq_getbyte", "secure_read"}, Count: 200},
			{Frames: []string{"postgresql", "[postgresql executable]"}, Count: 120},
		}}
		t.GHC = &lab.GHCStats{BytesAllocated: 158000 * t.Load.Requests, AllocPerRequest: 158000, GCs: 70, MajorGCs: 1,
			GCCPUSeconds: 0.004, CPUSeconds: 0.43, GCShare: 0.004 / 0.43, MaxLiveBytes: 2400000}
		t.SQL = sql
	}
	return run
}

func renderProfiled(t *testing.T) (html, md string) {
	t.Helper()
	run := profiledRun()
	v := stats.Compare(run, 0.05)
	var h, m bytes.Buffer
	if err := report.HTML(&h, run, v); err != nil {
		t.Fatal(err)
	}
	if err := report.Markdown(&m, run, v); err != nil {
		t.Fatal(err)
	}
	return h.String(), m.String()
}

func TestProfileSections(t *testing.T) {
	html, md := renderProfiled(t)
	for _, want := range []string{`<h2 id="cpu-profile">CPU profile</h2>`, `<svg class="flame"`, "PostgREST.Query.SqlFragment.$wescapeIdent",
		"Functions whose share changed most: unix vs tcp", `<h2 id="ghc-runtime">GHC runtime</h2>`, "GHC bytes allocated (KB/req)",
		`<h2 id="sql">SQL per variant</h2>`, "only in variant", "SELECT pg_catalog.extra_query_per_request()"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if n := strings.Count(html, `<svg class="flame"`); n != 3 {
		t.Errorf("%d flame graphs, want one per variant (3)", n)
	}
	if strings.Contains(html, "<script") {
		t.Error("HTML has a script")
	}
	for _, want := range []string{"## CPU profile", "### unix: top functions", "| `PostgREST.Query.SqlFragment.$wescapeIdent` | postgrest |",
		"## GHC runtime", "| tcp | 158 kB |", "## SQL per variant", "**only in variant**", "| GETSingle | unix |", "Haskell modules by self share:", "perf itself used 0.050 s of CPU per trial"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	// PostgreSQL's code without symbols is said to be so, not listed as a function.
	if !strings.Contains(md, "Not in the table: `[postgresql executable]` (postgresql), ") || !strings.Contains(md, "PostgreSQL's own code, not a function") ||
		strings.Contains(md, "| `[postgresql executable]` | postgresql |") {
		t.Error("Markdown: [postgresql executable] is not explained, or listed as a function")
	}
	if !strings.Contains(html, "Not in the tables: <code>[postgresql executable]</code> (postgresql)") || strings.Contains(html, `<td class="q">[postgresql executable]</td>`) {
		t.Error("HTML: [postgresql executable] is not explained, or listed as a function")
	}
	// The extra statement is flagged for unix only; unix-nolog sends what tcp sends.
	_, sql, _ := strings.Cut(md, "## SQL per variant")
	if strings.Contains(sql, "| GETSingle | unix-nolog | **") {
		t.Error("unix-nolog flagged, but it sends the baseline's statements")
	}
}

func TestProfileFilesNextToTheRun(t *testing.T) {
	run := profiledRun()
	dir := t.TempDir()
	if err := report.WriteAll(dir, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"tcp", "unix", "unix-nolog"} {
		for _, f := range []string{"flame-" + v + ".svg", "profile-" + v + ".pb.gz", "stacks-" + v + ".folded"} {
			if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pr profile.Report
	if err := json.Unmarshal(b, &pr); err != nil {
		t.Fatal(err)
	}
	if len(pr.Variants) != 3 || len(pr.GHC) != 3 || len(pr.FuncChanges) != 2 {
		t.Fatalf("profile.json: %d variants, %d GHC, %d change lists", len(pr.Variants), len(pr.GHC), len(pr.FuncChanges))
	}
	top := pr.FuncChanges[0].Changes[0]
	if pr.FuncChanges[0].Variant != "unix" || top.Name != "PostgREST.Query.SqlFragment.$wescapeIdent" || !(top.SelfDelta > 0) {
		t.Errorf("biggest change of unix: %+v", top)
	}
	flagged := 0
	for _, c := range pr.SQLChanges {
		if c.Kind != "" {
			flagged++
			if c.Variant != "unix" || c.Kind != "only in variant" || fmt.Sprintf("%.2f", c.Var) != "1.00" {
				t.Errorf("flagged %+v", c)
			}
		}
	}
	if flagged != 2 { // two scenarios
		t.Errorf("%d flagged SQL changes, want 2", flagged)
	}
	// A run without profiles writes none of these.
	plain := fixtureRun("closed")
	dir2 := t.TempDir()
	if err := report.WriteAll(dir2, plain, stats.Compare(plain, 0.05)); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir2, "*profile*")); len(m) != 0 {
		t.Errorf("profile files without profiles: %v", m)
	}
}

// The profile sections render in headless Chromium: the screenshot of the
// whole page shows the flame graphs, the only wide bars in warm colours
// (charts draw lines and dots, tables are grey and white).
func TestProfileHTMLRendersInChromium(t *testing.T) {
	html, _ := renderProfiled(t)
	img := screenshot(t, []byte(html), "1200,9000")
	b := img.Bounds()
	wide := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		warm := 0
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r, g, bl = r>>8, g>>8, bl>>8; r >= 205 && g >= 80 && g <= 210 && bl >= 40 && bl <= 90 {
				warm++
			}
		}
		if warm*10 >= 3*b.Dx() {
			wide++
		}
	}
	// Three flame graphs with at least two wide coloured frames of 16 px each.
	t.Logf("screenshot %v: %d rows with wide warm bars", b.Size(), wide)
	if wide < 3*2*10 {
		t.Errorf("flame graphs missing from the rendered page: %d rows with wide warm bars", wide)
	}
}
