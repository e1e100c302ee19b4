package runas

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// StartConfined starts cmd so that it and everything it runs can never
// gain a privilege: no_new_privs is set (setuid bits and file
// capabilities do nothing for it) and, when the lab is root, the
// capability bounding set is empty. Both are set on one OS thread kept
// for this (a goroutine locked to it for the process's life), which forks
// every confined process; the lab's other threads keep their rights (the
// Go runtime starts new threads from a template thread, not from a locked
// one). The thread never ends, so that a child's parent-death signal,
// which is tied to the thread that forked it, never fires early: a cmd
// with SysProcAttr.Pdeathsig is refused all the same, as the thread is not
// the caller's.
func StartConfined(cmd *exec.Cmd) error {
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.Pdeathsig != 0 {
		return fmt.Errorf("%s: a confined process cannot have a parent-death signal (it is forked by the launcher's thread)", cmd.Path)
	}
	launcher.once.Do(startLauncher)
	done := make(chan error, 1)
	launcher.reqs <- launch{cmd: cmd, done: done}
	return <-done
}

var launcher struct {
	once sync.Once
	reqs chan launch
}

type launch struct {
	cmd  *exec.Cmd
	done chan error
}

// startLauncher starts the goroutine that confines its thread and then
// starts what it is given; when the thread cannot be confined it answers
// every request with why.
func startLauncher() {
	launcher.reqs = make(chan launch)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread serves only this
		err := confineThread()
		for l := range launcher.reqs {
			if err != nil {
				l.done <- err
				continue
			}
			l.done <- l.cmd.Start()
		}
	}()
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
