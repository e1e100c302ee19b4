package main

import (
	"os"
	"path/filepath"
	"testing"
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
