package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// `lab report DIR` on a matrix directory re-renders the matrix from
// matrix.json and the hosts' run.json, found relative to the matrix even
// after RESULTS has moved.
func TestReportMatrixDir(t *testing.T) {
	results := filepath.Join(t.TempDir(), "results")
	m := &matrix.Matrix{Experiment: "socket-vs-tcp", Title: "Socket vs TCP", Started: statstest.Start, Concurrent: true,
		Schedule: "distinct machines, load generators on their own CPUs"}
	for i, label := range []string{"db1", "db2"} {
		dir := resultDir(t, filepath.Join(results, label, "socket-vs-tcp", "20261130-090000"), 2600+float64(i)*100, uint64(i+1), statstest.Start)
		run, err := record.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		m.Hosts = append(m.Hosts, matrix.Host{Label: label, URL: "https://" + label + ":7171", Dir: dir, Run: run,
			Verdicts: stats.Compare(run, 0), Generator: "1"})
	}
	m.Hosts = append(m.Hosts, matrix.Host{Label: "db3", URL: "https://db3:7171", Error: "agent busy"})
	m.Compare()
	if err := matrix.Write(filepath.Join(results, "matrix", "socket-vs-tcp", "20261130-090000"), m); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(results, moved); err != nil {
		t.Fatal(err)
	}
	mdir := filepath.Join(moved, "matrix", "socket-vs-tcp", "20261130-090000")

	out, _, err := reportLab(t, "report", mdir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Matrix: Socket vs TCP on 3 hosts", "at the same time: distinct machines", "GETSingle across hosts",
		"db2", "failed: agent busy", "Ratios (×) are against db1", "db1 verdict:", "GETSingle: unix vs tcp"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal lacks %q:\n%s", want, out)
		}
	}
	out, _, err = reportLab(t, "report", mdir, "--format", "md")
	if err != nil || !strings.Contains(out, "## Across hosts, per scenario") || !strings.Contains(out, "(../../../db2/socket-vs-tcp/20261130-090000/report.md)") {
		t.Errorf("md: %v\n%s", err, out)
	}
	out, _, err = reportLab(t, "report", mdir, "--format", "json")
	if err != nil || !strings.Contains(out, `"reference": "db1"`) || !strings.Contains(out, `"report_dir": "../../../db2/socket-vs-tcp/20261130-090000"`) {
		t.Errorf("json: %v\n%s", err, out)
	}
	html := filepath.Join(mdir, "matrix.html")
	if err := os.Remove(html); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := reportLab(t, "report", mdir, "--format", "html", "--write"); err != nil || !strings.Contains(stderr, "matrix.html") {
		t.Errorf("--write: %v, %s", err, stderr)
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "<h3>db2</h3>") {
		t.Errorf("matrix.html not rewritten: %v", err)
	}
	if _, _, err := reportLab(t, "report", mdir, "--format", "bench"); err == nil || !strings.Contains(err.Error(), "no bench format") {
		t.Errorf("bench on a matrix: %v", err)
	}
	// A host's result directory gone: the error names the host and what is missing.
	if err := os.RemoveAll(filepath.Join(moved, "db2")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reportLab(t, "report", mdir); err == nil || !strings.Contains(err.Error(), "host 2 (db2)") || !strings.Contains(err.Error(), "run.json") {
		t.Errorf("missing host directory: %v", err)
	}
}
