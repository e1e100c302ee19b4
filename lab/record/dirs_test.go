package record_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// Dirs finds result directories in a tree, in order, leaving out hidden
// ones (a result being written); a result directory given is itself.
func TestDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"exp/b", "exp/a", "exp/.tmp-c", "other/x/y"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, record.File), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, unread, err := record.Dirs(root)
	want := []string{filepath.Join(root, "exp/a"), filepath.Join(root, "exp/b"), filepath.Join(root, "other/x/y")}
	if err != nil || len(unread) != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("Dirs(tree) = %v, %v, %v; want %v", got, unread, err, want)
	}
	if got, _, err := record.Dirs(want[0]); err != nil || !reflect.DeepEqual(got, want[:1]) {
		t.Errorf("Dirs(result dir) = %v, %v", got, err)
	}
	if _, _, err := record.Dirs(filepath.Join(root, "missing")); err == nil {
		t.Error("Dirs(missing) gave no error")
	}
}
