// Package pgbin finds PostgreSQL's server programs (initdb, postgres, ...)
// on this machine, for the local stack and for tests alike.
//
// The order: a directory given by the caller, else $LAB_PG_BINDIR, else
// `pg_config --bindir` when it holds initdb, else the newest major version
// under /usr/lib/postgresql/*/bin (by version number: 16 is newer than 9.6).
package pgbin

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/mod/semver"
)

// Programs are the server programs a directory must hold to be used.
var Programs = []string{"initdb", "postgres"}

// Debian is the glob of Debian's per-version bin directories.
const Debian = "/usr/lib/postgresql/*/bin"

// Find returns the directory of PostgreSQL's server programs (see the
// package doc for the order). dir, when not empty, must hold them.
func Find(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv("LAB_PG_BINDIR")
	}
	if dir != "" {
		for _, p := range Programs {
			if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
				return "", fmt.Errorf("PostgreSQL not found: no %s in %s (install PostgreSQL, e.g. apt-get install postgresql, or point LAB_PG_BINDIR at its bin directory)", p, dir)
			}
		}
		return dir, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "pg_config", "--bindir").Output(); err == nil {
		d := string(bytes.TrimSpace(out))
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	m, _ := filepath.Glob(filepath.Join(Debian, "initdb"))
	if len(m) == 0 {
		return "", fmt.Errorf("PostgreSQL not found: no initdb via pg_config or in %s (install PostgreSQL, e.g. apt-get install postgresql, or set LAB_PG_BINDIR)", Debian)
	}
	dirs := make([]string, len(m))
	for i, p := range m {
		dirs[i] = filepath.Dir(p)
	}
	return Newest(dirs), nil
}

// Newest picks the directory of the highest PostgreSQL version among
// .../<version>/bin directories, comparing versions as numbers ("9.6" <
// "16"; a directory not named by a version sorts below them all).
func Newest(dirs []string) string {
	return slices.MaxFunc(dirs, func(a, b string) int { return semver.Compare(version(a), version(b)) })
}

// version is the <version> of .../<version>/bin as a semantic version
// ("9.6" -> "v9.6").
func version(dir string) string { return "v" + filepath.Base(filepath.Dir(dir)) }
