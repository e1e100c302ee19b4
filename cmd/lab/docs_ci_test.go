package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/gate"
)

// docs/github-actions.md stays true to the command: its gate parses, its
// list of gate metrics is gate.Names(), and it uses --markdown and --gate.
func TestGitHubActionsDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/github-actions.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	m := regexp.MustCompile(`--gate '([^']+)'`).FindAllStringSubmatch(doc, -1)
	if len(m) == 0 {
		t.Fatal("the doc shows no --gate")
	}
	for _, g := range m {
		if _, err := gate.Parse(g[1]); err != nil {
			t.Errorf("the doc's gate %q: %v", g[1], err)
		}
	}
	for _, n := range gate.Names() {
		if !strings.Contains(doc, "`"+n+"`") {
			t.Errorf("the doc's list of gate metrics lacks %q", n)
		}
	}
	var pf prFlags
	fs := newFlags("ab", abUsage, &strings.Builder{})
	pf.add(fs)
	for _, f := range []string{"markdown", "gate"} {
		if !strings.Contains(doc, "--"+f+" ") || fs.Lookup(f) == nil {
			t.Errorf("flag --%s: in the doc %v, known %v", f, strings.Contains(doc, "--"+f+" "), fs.Lookup(f) != nil)
		}
	}
}
