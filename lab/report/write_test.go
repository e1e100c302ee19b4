package report_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// writeRun stores run as dir/run.json, as the runner does.
func writeRun(t *testing.T, dir string, run *lab.Run) {
	t.Helper()
	if err := record.Write(dir, run); err != nil {
		t.Fatal(err)
	}
}

func TestWriteAllAndLoad(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, fixtureRun("closed"))
	run, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trials) != 48 || run.Target.Reference != true {
		t.Fatalf("loaded %d trials", len(run.Trials))
	}
	if err := report.WriteAll(dir, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	for _, name := range report.Files {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v (size %v)", name, err, fi)
		}
	}
	if out := os.Getenv("REPORT_OUT"); out != "" { // keep the files to look at them
		os.MkdirAll(out, 0o755)
		for _, name := range append([]string{record.File}, report.Files...) {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			os.WriteFile(filepath.Join(out, name), b, 0o644)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	// results.bench reads back with benchfmt: one result per valid trial.
	f, _ := os.Open(filepath.Join(dir, "results.bench"))
	defer f.Close()
	r := benchfmt.NewReader(f, "results.bench")
	n := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("bench: %v", r.Result())
		}
		n++
		if n == 1 {
			if got := string(res.Name); got != "BenchmarkGETSingle/variant=tcp" {
				t.Errorf("first name %q", got)
			}
			rate, _ := res.Value("req/s")
			secop, _ := res.Value("sec/op") // the reader tidies ns/op into sec/op
			if rate <= 0 || secop*rate < 0.999 || secop*rate > 1.001 {
				t.Errorf("req/s %v, sec/op %v", rate, secop)
			}
			if res.GetConfig("experiment") != "socket-vs-tcp" || res.GetConfig("reference") != "true" {
				t.Errorf("config %v", res.Config)
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 47 { // 48 trials, one failed
		t.Errorf("%d bench results, want 47", n)
	}

	rows := readCSV(t, filepath.Join(dir, "trials.csv"))
	if len(rows) != 49 || rows[0][0] != "seq" || rows[1][1] != "tcp" {
		t.Errorf("trials.csv: %d rows, first %v", len(rows), rows[:2])
	}
	samples := 0
	for _, tr := range run.Trials {
		samples += len(tr.Server.Samples) + len(tr.Database.Samples)
	}
	if rows := readCSV(t, filepath.Join(dir, "telemetry.csv")); len(rows) != samples+1 {
		t.Errorf("telemetry.csv: %d rows, want %d", len(rows), samples+1)
	}
	var v map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "verdicts.json"))
	if err := json.Unmarshal(b, &v); err != nil || len(v["rows"].([]any)) == 0 {
		t.Errorf("verdicts.json: %v", err)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := record.ReadDir(dir); err == nil || !strings.Contains(err.Error(), "run.json") {
		t.Errorf("missing run.json: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(`{"schema": 1, "trials": [}`), 0o644)
	if _, err := record.ReadDir(dir); err == nil || !strings.Contains(err.Error(), "at byte") {
		t.Errorf("bad JSON: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(`{"schema": 99}`), 0o644)
	if _, err := record.ReadDir(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("newer schema: %v", err)
	}
}
