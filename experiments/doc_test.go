package experiments

import (
	"os"
	"strings"
	"testing"
)

// The file format reference in the package doc must be a valid experiment.
func TestDocReferenceParses(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, ref, ok := strings.Cut(string(b), "// # File format\n")
	if !ok {
		t.Fatal("no # File format section in doc.go")
	}
	var src strings.Builder
	started := false
	for _, line := range strings.Split(ref, "\n") {
		if l, ok := strings.CutPrefix(line, "//\t"); ok {
			src.WriteString(l + "\n")
			started = true
		} else if started && line != "//" {
			break
		}
	}
	e, err := Parse("doc.go", []byte(src.String()), fakeKeysAllowing)
	if err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	// the [[scenario]] and the targets file's scenario
	if len(e.Variants) != 1 || len(e.Custom) != 2 || e.Custom[1].Targets != "load/targets.http" || e.Load.Limit.P99 == 0 {
		t.Errorf("reference decoded to %+v", e)
	}
}

func fakeKeysAllowing(key, value string, _ bool) error { return fakeKeys(key, value, true) }
