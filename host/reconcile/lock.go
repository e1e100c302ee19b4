package reconcile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// LockFile is the file in a state directory (a stack's directory) that a
// lab agent or lab run locks for as long as it drives the target there.
const LockFile = "lab.lock"

// stateLock is an exclusive flock(2) on StateDir/lab.lock: one agent or
// run per stack, so a second one neither reverts the first one's variant
// nor gives a second driver a concurrent session. The kernel drops it when
// the process ends, however it ends.
type stateLock struct{ f *os.File }

func lockState(dir string) (*stateLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := strings.TrimSpace(string(holder))
			if who == "" {
				who = "another process"
			}
			return nil, fmt.Errorf("%s is in use by another lab agent or lab run (%s): one at a time per stack; stop it first", dir, who)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	_ = f.Truncate(0)
	_, _ = fmt.Fprintf(f, "pid %d (%s) since %s\n", os.Getpid(), filepath.Base(os.Args[0]), time.Now().UTC().Format(time.RFC3339))
	return &stateLock{f: f}, nil
}

func (s *stateLock) release() {
	if s != nil && s.f != nil {
		_ = syscall.Flock(int(s.f.Fd()), syscall.LOCK_UN)
		_ = s.f.Close()
		s.f = nil
	}
}
