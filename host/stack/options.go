package stack

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// DefaultDir is the state directory used when Options.Dir is empty.
const DefaultDir = ".lab"

// Database is the database the target serves and fixtures fill.
const Database = "chinook"

// Options configure Up.
type Options struct {
	Dir        string       // state directory ("" = DefaultDir in the working directory)
	Supervisor systemd.Mode // one of systemd.StackModes ("" = $LAB_SUPERVISOR, else auto)
	Postgrest  string       // target binary; "" = find postgrest, else postgrest-mini
	// TargetUser runs the target when the lab is root ("" =
	// $LAB_TARGET_USER, else runas.DefaultUser, created when missing).
	// A lab that is not root runs the target as itself.
	TargetUser string
	NoTarget   bool      // bring up PostgreSQL only
	PGBinDir   string    // PostgreSQL server programs ("" = $LAB_PG_BINDIR, pg_config, /usr/lib/postgresql/*/bin)
	PGPort     int       // PostgreSQL TCP port (0 = keep the stack's, else a free one)
	Port       int       // target's server-port (0 = keep the stack's, else a free one)
	AdminPort  int       // target's admin-server-port (0 = keep the stack's, else a free one)
	Progress   io.Writer // one line per step; nil = silent
}

func (o Options) supervisor() (systemd.Mode, error) {
	s := o.Supervisor
	if s == "" {
		s = systemd.Mode(os.Getenv("LAB_SUPERVISOR"))
	}
	switch s {
	case "", systemd.ModeAuto:
		return systemd.ModeAuto, nil
	case systemd.ModeSystemd, systemd.ModeDirect:
		return s, nil
	}
	return "", fmt.Errorf("supervisor %q: allowed: %s", s, systemd.ModeList(systemd.StackModes))
}

// AbsDir resolves a state directory ("" = DefaultDir) to an absolute path.
func AbsDir(dir string) (string, error) {
	if dir == "" {
		dir = DefaultDir
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("state dir %s: %w", dir, err)
	}
	return abs, nil
}

func (o Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}
