package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRewriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "postgrest.conf")
	orig, _ := os.ReadFile("testdata/golden/tutorial.conf")
	os.WriteFile(path, orig, 0o644)
	j, _ := OpenJournal(filepath.Join(dir, "state"))

	_, err := RewriteFile(j, path, map[string]string{"db-pol": "4", "log-level": "loud", "db-pool": "4"}, false)
	if err == nil || !strings.Contains(err.Error(), `did you mean "db-pool"`) || !strings.Contains(err.Error(), "allowed: crit") {
		t.Fatalf("want both problems reported, got %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(orig) || len(j.Pending()) != 0 {
		t.Fatal("file written despite a refused key")
	}
	changed, err := RewriteFile(j, path, map[string]string{"db-pool": "4", "log-level": "crit", "server-port": "3000", "db-prepared-statements": "off"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(changed, ",") != "db-pool,db-prepared-statements,log-level" {
		t.Fatalf("changed = %v", changed)
	}
	f, _ := ParseFile(path)
	if errs := f.Validate(false); len(errs) != 0 {
		t.Fatalf("validate: %v", errs)
	}
	if _, err := j.Restore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(orig) {
		t.Fatal("not restored")
	}
}

func TestFileValidate(t *testing.T) {
	f, err := Parse("p.conf", []byte("db-pool = \"x\"\nlog-levle = \"crit\"\ndb-prepared-statements = on\nserver-port = 3000\n"))
	if err != nil {
		t.Fatal(err)
	}
	errs := f.Validate(false)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "p.conf") || !strings.Contains(errs[1].Error(), "log-level") {
		t.Fatalf("errs = %v", errs)
	}
}
