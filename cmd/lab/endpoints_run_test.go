package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// slowGenre is a db-pre-request function that holds every request for
// /genre 20 ms in the database: a change of one line that leaves nothing
// behind for the next request to pay (no garbage, no cache).
const slowGenre = `CREATE OR REPLACE FUNCTION public.lab_slow_genre() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('request.path', true) LIKE '%/genre%' THEN PERFORM pg_sleep(0.02); END IF;
END $$`

// A targets file of two small lines (the 25 genres, one artist), and a
// variant B whose db-pre-request holds the genre line 20 ms: on the real
// PostgREST and on postgrest-mini, the genre line is flagged slower and
// the artist line is not, in the run's verdicts and in the --markdown
// summary, whose per-endpoint table comes first. The change must not
// come from the other line: an earlier version made B's slow line answer
// 5 rows instead of 3,503, and the line after it, which followed a large
// answer only in A, was itself 3-62 % slower in A (the garbage of the
// large answer; more on a busy machine), which the test rightly flagged.
func TestEndpointVerdicts(t *testing.T) {
	for _, tg := range []struct {
		name string
		bin  func(t *testing.T) string
	}{{"real", func(t *testing.T) string { return labtest.PostgREST(t) }}, {"mini", buildMini}} {
		t.Run(tg.name, func(t *testing.T) {
			dir := directStack(t, "--postgrest", tg.bin(t))
			if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil { // the run would load it, over the function
				t.Fatalf("fixture chinook: %v\n%s", err, out)
			}
			adminExec(t, stackStatus(t, dir).AdminURI, slowGenre)
			tmp := t.TempDir()
			exp := filepath.Join(tmp, "ep.toml")
			os.WriteFile(filepath.Join(tmp, "t.http"), []byte("GET http://postgrest/genre?select=*\n\nGET http://postgrest/artist?select=*&artist_id=eq.3\n"), 0o644)
			os.WriteFile(exp, []byte(`name = "ep"
title = "ep"
targets = "t.http"
[load]
model = "closed"
connections = 1
think = "5ms"
[[variant]]
name = "a"
baseline = true
postgrest = { log-level = "crit" }
[[variant]]
name = "b"
postgrest = { log-level = "crit", db-pre-request = "public.lab_slow_genre" }
`), 0o644)
			results, md := t.TempDir(), filepath.Join(tmp, "summary.md")
			// Seven rounds: Holm's first step over two lines tests at
			// 0.025, which the paired test reaches with 7 rounds (2/2^7).
			out, err := runLab(t, "run", exp, "--dir", dir, "--results", results, "--min-trials", "7", "--max-trials", "7",
				"--duration", "1s", "--warmup", "200ms", "--markdown", md)
			if err != nil {
				t.Fatalf("lab run: %v\n%s", err, out)
			}
			_, run := onlyRun(t, filepath.Join(results, "ep"))
			v := stats.Compare(run, 0)
			var slow, fast *stats.Endpoint
			for i, e := range v.Endpoints {
				switch e.Name {
				case "200 GET /genre?select=*":
					slow = &v.Endpoints[i]
				case "200 GET /artist?select=*&artist_id=eq.3":
					fast = &v.Endpoints[i]
				}
			}
			if slow == nil || fast == nil {
				t.Fatalf("endpoints %+v, want the two lines", v.Endpoints)
			}
			for _, e := range []*stats.Endpoint{slow, fast} {
				t.Logf("%s: P50 %.3g -> %.3g ms, change %.1f%%, Holm p %.3g", e.Name, e.Base.P50Ms, e.Var.P50Ms, e.Row.DeltaPct, e.HolmP)
			}
			if !slow.Changed() || slow.Row.Outcome != stats.Worse || slow.Line != 1 {
				t.Errorf("slow line: outcome %s, change %.1f%%, Holm p %.3g (line %d)", slow.Row.Outcome, slow.Row.DeltaPct, slow.HolmP, slow.Line)
			}
			// B calls its pre-request function on the artist line too (a
			// query's cost, well under a millisecond): the verdict may
			// flag that, but as a change far under the genre line's.
			flagged := fast.Changed() && math.Abs(fast.Row.DeltaPct) > math.Abs(slow.Row.DeltaPct)/2
			if flagged || fast.Line != 3 {
				t.Errorf("fast line flagged: outcome %s, change %.1f%%, Holm p %.3g (line %d)", fast.Row.Outcome, fast.Row.DeltaPct, fast.HolmP, fast.Line)
			}
			b, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			ep, verdict := strings.Index(s, "#### Verdict per endpoint"), strings.Index(s, "\n| scenario | variant |")
			row := strings.Index(s, "| `200 GET /genre?select=*` |")
			if ep < 0 || row < ep || (verdict >= 0 && verdict < ep) {
				t.Errorf("summary: the per-endpoint table is not first (at %d, verdict at %d, slow row at %d):\n%s", ep, verdict, row, s)
			}
			if line := s[row:]; !strings.Contains(line[:strings.IndexByte(line, '\n')], "worse") {
				t.Errorf("summary: the slow line's row does not say worse: %s", line[:strings.IndexByte(line, '\n')])
			}
		})
	}
}

// The bundled loadtest experiment runs as it is: every line of its targets
// file answered (the POST rolled back: 201), one row each, no errors.
func TestLoadtestExperimentRuns(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tg := range []struct {
		name string
		bin  func(t *testing.T) string
	}{{"real", func(t *testing.T) string { return labtest.PostgREST(t) }}, {"mini", buildMini}} {
		t.Run(tg.name, func(t *testing.T) {
			dir := directStack(t, "--postgrest", tg.bin(t))
			results := t.TempDir()
			out, err := runLab(t, "run", "loadtest", "--dir", dir, "--results", results, "--min-trials", "2", "--max-trials", "2",
				"--duration", "1s", "--warmup", "0s")
			if err != nil {
				t.Fatalf("lab run loadtest: %v\n%s", err, out)
			}
			_, run := onlyRun(t, filepath.Join(results, "loadtest"))
			want := []string{"200 GET /artist?select=*&artist_id=eq.3", "200 GET /album?select=*,track(*,genre(*))&artist_id=eq.3",
				"200 HEAD /track?select=*&album_id=eq.3", "201 POST /employee", "200 GET /rpc/ret_artists?select=*&artist_id=eq.3"}
			for _, tr := range run.Trials {
				var got []string
				for _, e := range tr.Load.Endpoints {
					got = append(got, e.Name)
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") || tr.Load.Errors != 0 || tr.Load.Connections != 1 {
					t.Errorf("trial %d (%s): rows %q, errors %d, connections %d; want rows %q, no errors, 1 connection",
						tr.Seq, tr.Variant, got, tr.Load.Errors, tr.Load.Connections, want)
				}
			}
		})
	}
}
