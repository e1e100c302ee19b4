package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/experiments"
)

// maxREADME is the README's budget: it is for users, short and current;
// measurements and the long explanations live under docs/.
const maxREADME = 10 * 1024

func TestREADMEIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > maxREADME {
		t.Errorf("README.md is %d bytes, over its budget of %d: move detail to docs/", len(b), maxREADME)
	}
}

// The README names every bundled experiment, so that a user who reads it
// knows what the lab can answer without running lab validate.
func TestREADMENamesEveryBundledExperiment(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range experiments.Names() {
		if !strings.Contains(string(b), "`"+name+"`") {
			t.Errorf("README.md does not name the bundled experiment `%s`", name)
		}
	}
}
