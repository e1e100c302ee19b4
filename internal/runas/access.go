package runas

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// may reports whether a holds the permission bit (4 read, 2 write,
// 1 execute) on fi, by owner, group or other, as the kernel decides it for
// a process with a's uid, primary group and supplementary groups.
func (a Account) may(fi os.FileInfo, bit os.FileMode) bool {
	if a.UID == 0 {
		return true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	m := fi.Mode().Perm()
	switch {
	case int(st.Uid) == a.UID:
		return m&(bit<<6) != 0
	case a.inGroup(int(st.Gid)):
		return m&(bit<<3) != 0
	}
	return m&bit != 0
}

func (a Account) inGroup(gid int) bool {
	if gid == a.GID {
		return true
	}
	for _, g := range a.groups() {
		if g == gid {
			return true
		}
	}
	return false
}

// CanEnter fails, saying which directory stops it, unless a can search
// dir and every directory above it.
func (a Account) CanEnter(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for d := abs; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return err
		}
		if !a.may(fi, 1) {
			return fmt.Errorf("%s cannot enter %s (mode %04o)", a.Name, d, fi.Mode().Perm())
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// CanExecute fails unless a can reach path and read and execute it.
func (a Account) CanExecute(path string) error {
	if err := a.CanEnter(filepath.Dir(path)); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || !a.may(fi, 1) || !a.may(fi, 4) {
		return fmt.Errorf("%s cannot read and execute %s (mode %04o)", a.Name, path, fi.Mode().Perm())
	}
	return nil
}

// CheckBinary refuses a binary that a user other than root and the lab's
// own could replace, or change, before it runs: the file must be a regular
// file of one of them that no group or other may write, in a directory no
// one else may change (safefile.CheckPrivateDir).
func CheckBinary(path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("binary %s: %w", path, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("binary %s: %w", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok || !fi.Mode().IsRegular():
		return fmt.Errorf("binary %s: not a regular file", path)
	case st.Uid != 0 && int(st.Uid) != safefile.Own():
		return fmt.Errorf("binary %s belongs to uid %d, who could replace what runs as the target: give it to root (or the lab's user)", path, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("binary %s is writable by group or others (mode %04o), who could replace what runs as the target: chmod go-w it", path, fi.Mode().Perm())
	}
	if err := safefile.CheckPrivateDir(filepath.Dir(real)); err != nil {
		return fmt.Errorf("binary %s: %w (keep binaries in a directory only root or the lab's user can change)", path, err)
	}
	return nil
}
