package pgbin

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNewestComparesVersionsAsNumbers(t *testing.T) {
	for _, c := range []struct {
		dirs []string
		want string
	}{
		{[]string{"/usr/lib/postgresql/9.6/bin", "/usr/lib/postgresql/16/bin"}, "/usr/lib/postgresql/16/bin"},
		{[]string{"/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/9.6/bin"}, "/usr/lib/postgresql/16/bin"},
		{[]string{"/usr/lib/postgresql/10/bin", "/usr/lib/postgresql/9.6/bin"}, "/usr/lib/postgresql/10/bin"},
		{[]string{"/usr/lib/postgresql/15/bin"}, "/usr/lib/postgresql/15/bin"},
	} {
		if got := Newest(c.dirs); got != c.want {
			t.Errorf("Newest(%v) = %s, want %s", c.dirs, got, c.want)
		}
	}
}

func TestFindGivenDir(t *testing.T) {
	dir := t.TempDir()
	if _, err := Find(dir); err == nil {
		t.Fatal("an empty directory was accepted")
	}
	for _, p := range Programs {
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := Find(dir); err != nil || got != dir {
		t.Fatalf("Find(%s) = %s, %v", dir, got, err)
	}
}
