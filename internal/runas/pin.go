package runas

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// Executable is a binary the lab has checked and may run.
type Executable struct {
	Named    string // the path as it was given (it may be relative, or a link)
	Resolved string // the file it named when it was checked, with no link
	// Path is what runs: when the lab is root, its private copy of the
	// bytes that were checked (Store); otherwise Resolved.
	Path string
}

// Copied reports whether what runs is the lab's copy, not the file named.
func (e Executable) Copied() bool { return e.Path != e.Resolved }

// Pin checks the binary at path and returns what to execute in its place,
// for a to run: the one way the lab runs a binary it did not write.
//
// The file path leads to (links resolved once) is opened component by
// component without following a link, and checked through that open
// descriptor: a regular, executable file of root or the lab's own user
// that no group or other may write, in directories no one else may change
// (safefile.OpenPrivate). A link or a file another user could replace is
// refused before anything of it runs. When the lab is root, the bytes read
// from that descriptor are copied into st, a directory only root can
// change, and the copy is what runs: a link repointed or a file replaced
// after the check changes nothing that runs, and a account that cannot
// reach the original (a build under root's 0700 home) can run the copy.
// Pin is called again before every start, so a binary is checked each
// time, not once; an unchanged file is not copied again.
func (a Account) Pin(path string, st Store) (Executable, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Executable{}, fmt.Errorf("binary %s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Executable{}, fmt.Errorf("binary %s: %w", path, err)
	}
	f, err := safefile.OpenPrivate(real)
	if err != nil {
		return Executable{}, fmt.Errorf("binary %s: %w (keep binaries in a directory only root or the lab's user can change)", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Executable{}, fmt.Errorf("binary %s: %w", path, err)
	}
	if err := checkBinaryFile(path, fi); err != nil {
		return Executable{}, err
	}
	exe := Executable{Named: path, Resolved: real, Path: real}
	if os.Geteuid() == 0 {
		if exe.Path, err = st.pin(f, fi, filepath.Base(real)); err != nil {
			return Executable{}, fmt.Errorf("binary %s: %w", path, err)
		}
	}
	if err := a.CanExecute(exe.Path); err != nil {
		return Executable{}, fmt.Errorf("binary %s: %w", path, err)
	}
	return exe, nil
}

// checkBinaryFile is the rule for the binary itself, on its open
// descriptor's stat: a regular, executable file of root or the lab's own
// user that no group or other may write.
func checkBinaryFile(path string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok || !fi.Mode().IsRegular():
		return fmt.Errorf("binary %s: not a regular file", path)
	case st.Uid != 0 && int(st.Uid) != safefile.Own():
		return fmt.Errorf("binary %s belongs to uid %d, who could replace what runs as the target: give it to root (or the lab's user)", path, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("binary %s is writable by group or others (mode %04o), who could replace what runs as the target: chmod go-w it", path, fi.Mode().Perm())
	case fi.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("binary %s is not executable (mode %04o)", path, fi.Mode().Perm())
	}
	return nil
}
