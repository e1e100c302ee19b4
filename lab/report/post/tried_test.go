package post

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// Issue 54, "what was tried": a run of three variants becomes a table of
// their changes and measured effects, and the one that helped nothing is
// listed among the failed attempts; the one that helped is not.
func TestWhatWasTried(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: 10, Noise: 0.01, Seed: 4, Detail: true,
		Variants: []statstest.Variant{{Name: "tcp", Baseline: true, Rate: 2000, P50Ms: 2, ServerUs: 400, DBUs: 300, RSSMB: 60},
			{Name: "unix", Rate: 2400, P50Ms: 1.7, ServerUs: 340, DBUs: 300, RSSMB: 60},
			{Name: "nolog", Rate: 2000, P50Ms: 2, ServerUs: 400, DBUs: 300, RSSMB: 60}}})
	for i := range run.Variants {
		switch run.Variants[i].Name {
		case "unix":
			run.Variants[i].Changes = []lab.Change{{Where: "postgrest", Key: "db-uri", From: "postgres://localhost", To: "postgres:///?host=/run/postgresql"}}
		case "nolog":
			run.Variants[i].Changes = []lab.Change{{Where: "postgrest", Key: "log-level", From: "error", To: "crit"}}
		}
	}
	dir := filepath.Join(t.TempDir(), "run")
	if err := record.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	srcs, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Build(srcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := a.Markdown
	i := strings.Index(md, "## What was tried")
	if i < 0 {
		t.Fatalf("no 'What was tried' section:\n%s", md)
	}
	sec := md[i:]
	if j := strings.Index(sec[3:], "\n## "); j >= 0 {
		sec = sec[:j+3]
	}
	for _, want := range []string{"| `unix` | postgrest `db-uri`: ", "| better |", "| `nolog` | postgrest `log-level`: `error` → `crit`", "Attempts that made nothing better:", "- nolog on GETSingle: no change the run could see"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the section lacks %q:\n%s", want, sec)
		}
	}
	if strings.Contains(sec, "- unix on GETSingle") {
		t.Errorf("the change that helped is listed as a failed attempt:\n%s", sec)
	}
}
