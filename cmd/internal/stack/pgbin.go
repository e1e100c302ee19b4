package stack

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// findPGBinDir finds PostgreSQL's server programs: dir when given, else
// $LAB_PG_BINDIR, else `pg_config --bindir` when it has initdb, else the
// newest /usr/lib/postgresql/*/bin.
func findPGBinDir(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv("LAB_PG_BINDIR")
	}
	if dir != "" {
		for _, p := range []string{"initdb", "postgres"} {
			if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
				return "", fmt.Errorf("PostgreSQL not found: no %s in %s (install PostgreSQL, e.g. apt-get install postgresql, or point LAB_PG_BINDIR at its bin directory)", p, dir)
			}
		}
		return dir, nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		d := string(bytes.TrimSpace(out))
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(m) == 0 {
		return "", fmt.Errorf("PostgreSQL not found: no initdb via pg_config or in /usr/lib/postgresql/*/bin (install PostgreSQL, e.g. apt-get install postgresql, or set LAB_PG_BINDIR)")
	}
	return filepath.Dir(m[len(m)-1]), nil
}
