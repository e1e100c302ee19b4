package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// matrixFixture is three hosts: "fast" and "slow" (half the rate, twice
// the CPU per request, noise-free so the ratios are exact) and "gone",
// which failed before measuring anything.
func matrixFixture(detail bool) *matrix.Matrix {
	host := func(label string, rate, us float64) matrix.Host {
		run := statstest.Run(statstest.Spec{Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle", "GETAllEmbed"},
			Variants: []statstest.Variant{{Name: "tcp", Baseline: true, Rate: rate, P50Ms: 2, ServerUs: us, DBUs: us},
				{Name: "unix", Rate: rate * 1.1, P50Ms: 2, ServerUs: us, DBUs: us}},
			Trials: 3, Seed: 1, Detail: detail})
		run.Host.Hostname = label
		return matrix.Host{Label: label, URL: "https://" + label + ":7070", Dir: filepath.Join("res", label, "socket-vs-tcp", "t"),
			Run: run, Verdicts: stats.Compare(run, 0)}
	}
	m := &matrix.Matrix{Experiment: "socket-vs-tcp", Title: "Socket vs TCP", Schedule: "both agents report the same machine",
		Hosts: []matrix.Host{host("fast", 2000, 100), host("slow", 1000, 200),
			{Label: "gone", URL: "https://gone:7070", Error: "connection refused"}}}
	m.Compare()
	return m
}

func TestMatrixTableRatiosAgainstTheReference(t *testing.T) {
	m := matrixFixture(false)
	tables := m.Table()
	if len(tables) != 2 || tables[0].Name != "GETSingle" || tables[1].Name != "GETAllEmbed" {
		t.Fatalf("scenarios %+v", tables)
	}
	for _, sc := range tables {
		if len(sc.Rows) != 2 || sc.Rows[0].Variant != "tcp" || sc.Rows[1].Variant != "unix" {
			t.Fatalf("%s: rows %+v", sc.Name, sc.Rows)
		}
		for _, r := range sc.Rows {
			fast, slow, gone := r.Cells[0], r.Cells[1], r.Cells[2]
			if fast.RateRatio != 1 || math.Abs(slow.RateRatio-0.5) > 1e-9 || math.Abs(slow.CPURatio-2) > 1e-9 {
				t.Errorf("%s %s: ratios fast %+v slow %+v, want 1, 0.5 (rate) and 2 (CPU)", sc.Name, r.Variant, fast, slow)
			}
			if fast.Trials != 3 || gone.Trials != 0 || !math.IsNaN(gone.Rate) || !math.IsNaN(gone.RateRatio) {
				t.Errorf("%s %s: trials fast %d, gone %+v", sc.Name, r.Variant, fast.Trials, gone)
			}
		}
	}
	// A host that failed after measuring keeps its cells and says it is partial.
	m.Hosts[1].Error = "session lost"
	var term bytes.Buffer
	matrix.Text(&term, m)
	if !strings.Contains(term.String(), "partial: session lost") || m.Table()[0].Rows[0].Cells[1].Trials != 3 {
		t.Errorf("partial host:\n%s", term.String())
	}
	// Without the first host, the second is the reference.
	m.Hosts[0] = matrix.Host{Label: "fast", Error: "agent busy"}
	m.Compare()
	if ref := m.Reference(); ref != 1 {
		t.Fatalf("reference %d, want 1 (the first host with trials)", ref)
	}
	if c := m.Table()[0].Rows[0].Cells[1]; c.RateRatio != 1 {
		t.Errorf("slow against itself: %+v", c)
	}
}

func TestMatrixFormats(t *testing.T) {
	m := matrixFixture(true)
	var term, md, js, html bytes.Buffer
	matrix.Text(&term, m)
	if err := matrix.Markdown(&md, m, "res/matrix/socket-vs-tcp/t"); err != nil {
		t.Fatal(err)
	}
	if err := matrix.JSON(&js, m, "."); err != nil {
		t.Fatal(err)
	}
	if err := matrix.HTML(&html, m, "res/matrix/socket-vs-tcp/t"); err != nil {
		t.Fatal(err)
	}
	t.Logf("terminal:\n%s", term.String())
	for name, out := range map[string]string{"terminal": term.String(), "markdown": md.String(), "html": html.String()} {
		for _, want := range []string{"one after another: both agents report the same machine", "GETSingle", "GETAllEmbed",
			"failed: connection refused", "×0.50", "×2.00", "Ratios (×) are against fast"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
	if !strings.Contains(md.String(), "(../../../fast/socket-vs-tcp/t/report.md)") {
		t.Errorf("markdown: no relative link to fast's report:\n%s", md.String())
	}
	for i, line := range strings.Split(md.String(), "\n") {
		if n := len([]rune(line)); n > 120 && strings.HasPrefix(line, "|") {
			t.Errorf("markdown table line %d is %d columns: %s", i+1, n, line)
		}
	}
	// Charts per host: 2 scenarios × (throughput, latency) for each of the two measured hosts.
	if n := strings.Count(html.String(), `<svg class="chart"`); n != 8 {
		t.Errorf("%d charts in matrix.html, want 8", n)
	}
	if strings.Contains(html.String(), "http://") && !strings.Contains(html.String(), "<a href=\"../../../fast/socket-vs-tcp/t/report.html\">") {
		t.Errorf("html: no link to fast's report")
	}
	var v struct {
		Reference string
		Hosts     []struct{ Label, Error string }
		Scenarios []struct {
			Name  string
			Cells []struct {
				Host      string
				Rate      *float64
				RateRatio *float64 `json:"rate_ratio"`
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &v); err != nil {
		t.Fatalf("matrix.json: %v\n%s", err, js.String())
	}
	if v.Reference != "fast" || len(v.Hosts) != 3 || v.Hosts[2].Error != "connection refused" || len(v.Scenarios) != 2 || len(v.Scenarios[0].Cells) != 6 {
		t.Fatalf("matrix.json: %+v", v)
	}
	if c := v.Scenarios[0].Cells[1]; c.Host != "slow" || c.RateRatio == nil || math.Abs(*c.RateRatio-0.5) > 1e-9 {
		t.Errorf("matrix.json cell %+v", c)
	}
	if c := v.Scenarios[0].Cells[2]; c.Host != "gone" || c.Rate != nil {
		t.Errorf("failed host's cell %+v, want null rate", c)
	}
}

func TestWriteMatrix(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "matrix")
	if err := matrix.Write(dir, matrixFixture(false)); err != nil {
		t.Fatal(err)
	}
	for _, f := range matrix.Files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Each cross-host ratio carries the unpaired test against the reference
// host (as lab compare): "half the rate" over 6 trials each is
// significant; the same rate under noise is not and is marked "~", in
// every format.
func TestMatrixCellsCarryTheUnpairedTest(t *testing.T) {
	host := func(label string, rate float64, seed uint64) matrix.Host {
		run := statstest.Run(statstest.Spec{Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"},
			Variants: []statstest.Variant{{Name: "tcp", Baseline: true, Rate: rate, P50Ms: 2, ServerUs: 100, DBUs: 100}},
			Trials:   6, Noise: 0.03, Seed: seed})
		return matrix.Host{Label: label, URL: "https://" + label + ":7070", Run: run, Verdicts: stats.Compare(run, 0)}
	}
	m := &matrix.Matrix{Experiment: "socket-vs-tcp", Hosts: []matrix.Host{host("ref", 2000, 1), host("half", 1000, 2), host("same", 2000, 3)}}
	m.Compare()
	row := m.Table()[0].Rows[0]
	ref, half, same := row.Cells[0], row.Cells[1], row.Cells[2]
	if ref.RateTest != nil {
		t.Errorf("the reference is tested against itself: %+v", ref.RateTest)
	}
	if half.RateTest == nil || !half.RateTest.Significant || half.RateTest.P >= 0.05 {
		t.Fatalf("half the rate over 6+6 trials: %+v, want significant", half.RateTest)
	}
	if same.RateTest == nil || same.RateTest.Significant || same.CPUTest == nil || same.CPUTest.Significant {
		t.Fatalf("the same rate and CPU: rate %+v, CPU %+v, want tested and not significant", same.RateTest, same.CPUTest)
	}
	wantSame := fmt.Sprintf("×%.2f ~", same.RateRatio)
	var term, md, html, js bytes.Buffer
	matrix.Text(&term, m)
	if err := matrix.Markdown(&md, m, "."); err != nil {
		t.Fatal(err)
	}
	if err := matrix.HTML(&html, m, "."); err != nil {
		t.Fatal(err)
	}
	if err := matrix.JSON(&js, m, "."); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"terminal": term.String(), "markdown": md.String(), "html": html.String()} {
		if !strings.Contains(out, wantSame) || strings.Contains(out, "×0.50 ~") || !strings.Contains(out, "not significant (Mann-Whitney U test against ref") {
			t.Errorf("%s: want %q for the same rate, ×0.50 without ~ and the legend:\n%s", name, wantSame, out)
		}
	}
	if !strings.Contains(html.String(), fmt.Sprintf(`title="Mann-Whitney U p=%.3f"`, half.RateTest.P)) {
		t.Errorf("matrix.html does not give the p-value of half's rate")
	}
	var v struct {
		Scenarios []struct {
			Cells []struct {
				Host     string
				RateTest *matrix.Test `json:"rate_test"`
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	c := v.Scenarios[0].Cells
	if c[0].RateTest != nil || c[1].RateTest == nil || !c[1].RateTest.Significant || c[2].RateTest == nil || c[2].RateTest.Significant {
		t.Errorf("matrix.json tests: %+v %+v %+v", c[0].RateTest, c[1].RateTest, c[2].RateTest)
	}
}
