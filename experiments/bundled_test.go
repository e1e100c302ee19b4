package experiments

import (
	"slices"
	"testing"
)

// Every bundled experiment must load and validate, and be named after its file.
func TestBundledExperimentsValidate(t *testing.T) {
	names := Names()
	if !slices.Contains(names, "socket-vs-tcp") {
		t.Fatalf("Names() = %v: socket-vs-tcp missing", names)
	}
	for _, n := range names {
		e, err := Load(n)
		if err != nil {
			t.Errorf("%s:\n%v", n, err)
			continue
		}
		if e.Name != n {
			t.Errorf("%s: name = %q, want the file's name", n, e.Name)
		}
		if e.Title == "" || e.Description == "" {
			t.Errorf("%s: title and description are required for bundled experiments", n)
		}
		if e.Source != "" {
			t.Errorf("%s: Source = %q, want \"\" for a bundled experiment", n, e.Source)
		}
	}
}
