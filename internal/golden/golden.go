// Package golden keeps the expected output of tests in files (golden
// files, under testdata/golden): a test compares what it made with the
// file, and `go test -update` rewrites the files from what the tests made.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files (testdata/golden) from what the tests make")

// File returns the golden file at path, for the test to compare got
// with; under -update it first writes got there. A missing file fails the
// test, saying how to make it.
func File(t testing.TB, path string, got []byte) []byte {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	return want
}
