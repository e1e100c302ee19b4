package runas

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// StartConfined starts cmd so that it and everything it runs can never
// gain a privilege: no_new_privs is set (setuid bits and file
// capabilities do nothing for it) and, when the lab is root, the
// capability bounding set is empty. Both are set on an OS thread of its
// own that forks cmd and then ends (a goroutine locked to its thread
// that returns without unlocking takes the thread with it), so the lab
// itself keeps its rights.
//
// A child's parent-death signal is tied to the thread that forked it, so
// a cmd with SysProcAttr.Pdeathsig is refused.
func StartConfined(cmd *exec.Cmd) error {
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.Pdeathsig != 0 {
		return fmt.Errorf("%s: a confined process cannot have a parent-death signal (its parent thread ends at once)", cmd.Path)
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if err := confineThread(); err != nil {
			errc <- err
			return
		}
		errc <- cmd.Start()
	}()
	return <-errc
}

// confineThread sets no_new_privs on the calling thread and, as root,
// drops every capability from its bounding set.
func confineThread() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if os.Geteuid() != 0 {
		return nil // no capabilities to bound
	}
	for c := 0; c <= lastCap(); c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("prctl(PR_CAPBSET_DROP, %d): %w", c, err)
		}
	}
	return nil
}

// lastCap is the kernel's highest capability number.
func lastCap() int {
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			return n
		}
	}
	return 63
}
