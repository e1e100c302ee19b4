package experiments

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes Parse (and its line scanner) panic
// or hang, and that a failed parse always says what is wrong.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.toml")
	bundledFiles, _ := filepath.Glob("*.toml")
	for _, p := range append(files, bundledFiles...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		e, err := Parse("f.toml", src, fakeKeys)
		if (e == nil) == (err == nil) {
			t.Fatalf("Parse returned experiment %v and error %v", e, err)
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
		indexLines(src)
	})
}
