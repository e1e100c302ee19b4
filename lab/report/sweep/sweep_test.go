package sweep_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/sweep"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// sweepReports renders the section of a synthetic pool-size sweep with a plateau from 5 up.
func sweepReports(t *testing.T) (html, md, term string) {
	t.Helper()
	run := statstest.PoolSweep([]float64{1000, 1500, 2400, 2410, 2405, 2400}, 0.02, 2, "")
	v := stats.Compare(run, 0)
	var m, tm bytes.Buffer
	h, err := sweep.HTML(run, v)
	if err != nil {
		t.Fatal(err)
	}
	sweep.Markdown(&m, run, v)
	sweep.Text(&tm, run, v)
	return string(h), m.String(), tm.String()
}

// A sweep's reports show a curve per metric (HTML) and the recommendation
// with a table of every value (all three); report.md fits 120 columns.
func TestSweepReports(t *testing.T) {
	html, md, term := sweepReports(t)
	for _, want := range []string{"GETSingle: throughput vs db-pool", "GETSingle: latency p99 vs db-pool",
		"GETSingle: server + database CPU vs db-pool", "GETSingle: server peak RSS vs db-pool"} {
		if !strings.Contains(html, `aria-label="`+want+`"`) {
			t.Errorf("HTML lacks the chart %q", want)
		}
	}
	rec := "db-pool 5 is within "
	// report.md wraps paragraphs: read it as the reader's renderer does.
	for name, s := range map[string]string{"html": html, "markdown": strings.ReplaceAll(md, "\n", " "), "terminal": term} {
		if !strings.Contains(s, "Recommendation") || !strings.Contains(s, rec) || !strings.Contains(s, "below 5 (at 2) throughput drops 3") {
			t.Errorf("%s lacks the recommendation:\n%s", name, s)
		}
		if !strings.Contains(s, "▶ recommended") || !strings.Contains(s, "★ best") {
			t.Errorf("%s does not mark the recommended and best values", name)
		}
	}
	if !strings.Contains(md, "| db-pool | throughput (req/s) | latency p99 (ms) | server + database CPU (µs/req) | server peak RSS (MB) | |") {
		t.Errorf("markdown table header missing:\n%s", md)
	}
	// The sweep's section fits 120 columns (the per-variant tables are
	// another matter: issue 16, item 3).
	for i, line := range strings.Split(md, "\n") {
		if len([]rune(line)) > 120 {
			t.Errorf("sweep section line %d is %d columns: %s", i+1, len([]rune(line)), line)
		}
	}
}

// A grid draws one line per value of the second key (a legend entry each)
// and its table has a column per key.
func TestSweepGridChart(t *testing.T) {
	var vs []statstest.Variant
	for _, p := range []string{"1", "5"} {
		for _, w := range []string{"4MB", "16MB"} {
			vs = append(vs, statstest.Variant{Name: "db-pool=" + p + "+work_mem=" + w, Baseline: p == "5" && w == "4MB",
				Rate: 1000 + 200*float64(len(p)+len(w)), P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60})
		}
	}
	run := statstest.Run(statstest.Spec{Experiment: "grid", Scenarios: []string{"GETAllEmbed"}, Trials: 4, Noise: 0.02, Seed: 5, Variants: vs})
	run.Experiment.Sweep = &lab.Sweep{SweepAxis: lab.SweepAxis{Key: "postgrest.db-pool", Values: []lab.Scalar{"1", "5"}, Baseline: "5"},
		Cross: &lab.SweepAxis{Key: "postgresql.work_mem", Values: []lab.Scalar{"4MB", "16MB"}, Baseline: "4MB"}}
	v := stats.Compare(run, 0)
	page, err := sweep.HTML(run, v)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{"Sweep: postgrest.db-pool × postgresql.work_mem", "work_mem 4MB", "work_mem 16MB",
		`aria-label="GETAllEmbed: throughput vs db-pool"`, "<th>work_mem</th>"} {
		if !strings.Contains(html, want) {
			t.Errorf("grid HTML lacks %q", want)
		}
	}
	if sc := v.Sweep.Scenarios[0]; len(sc.Points) != 4 || sc.Recommendation.Sentence == "" {
		t.Errorf("grid sweep %+v", sc)
	}
}

// With the search model, the throughput curve is the highest rate that met
// the latency limit at each value.
func TestSweepSearchModelTitle(t *testing.T) {
	run := statstest.PoolSweep([]float64{1000, 1500, 2400, 2410, 2405, 2400}, 0.02, 2, "")
	run.Experiment.Load.Model = lab.ModelSearch
	page, err := sweep.HTML(run, stats.Compare(run, 0))
	if err != nil {
		t.Fatal(err)
	}
	if html := string(page); !strings.Contains(html, `aria-label="GETSingle: highest rate within the limit vs db-pool"`) ||
		!strings.Contains(html, "<th>highest rate within the limit (req/s)</th>") {
		t.Error("search sweep: no curve or column of the highest rate within the limit")
	}
}
