package runas

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
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
