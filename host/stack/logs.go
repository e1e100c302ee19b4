package stack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// logNames are the files the lab (root, when it runs as root) opens by name
// in logs/: the services' output, which the supervisors append (PostgreSQL
// too writes only to that inherited descriptor, never by path), and a
// Haskell target's GHC statistics (+RTS -S, see host/reconcile).
var logNames = []string{"postgres.log", "target.log", "ghc-rts-stats.log"}

// secureLogDir makes logs/ a directory of the lab's user (mode 0755) that
// no other user can write: PostgreSQL's user needs no entry there, and
// root opens files in it by name. A stack brought up before gave logs/ to
// PostgreSQL's user; it is taken back, and whatever that user may have
// left at the lab's file names that is not a regular file of the lab's
// user (a link, a FIFO, its own file) is removed.
func secureLogDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return fmt.Errorf("logs %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (remove it, or choose another --dir)", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() || int(st.Gid) != os.Getegid() {
		if err := os.Lchown(dir, os.Geteuid(), os.Getegid()); err != nil {
			return fmt.Errorf("take back %s: %w", dir, err)
		}
	}
	if fi.Mode().Perm() != 0o755 || fi.Mode()&(os.ModeSetgid|os.ModeSticky|os.ModeSetuid) != 0 {
		if err := os.Chmod(dir, 0o755); err != nil {
			return fmt.Errorf("chmod %s: %w", dir, err)
		}
	}
	for _, n := range logNames {
		if err := safefile.RemoveUnsafe(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}
