package systemd

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// ParseSignal accepts "SIGUSR2", "USR2", "usr2" or a number.
func ParseSignal(s string) (syscall.Signal, error) {
	if n, err := strconv.Atoi(s); err == nil && n > 0 && n < 65 {
		return syscall.Signal(n), nil
	}
	name := strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if sig := unix.SignalNum(name); sig != 0 {
		return sig, nil
	}
	return 0, fmt.Errorf("unknown signal %q (want a name like SIGTERM, SIGINT, SIGUSR2 or a number)", s)
}

// SignalName is the signal's name ("SIGUSR2"), or its number when it has none.
func SignalName(sig syscall.Signal) string {
	if n := unix.SignalName(sig); n != "" {
		return n
	}
	return strconv.Itoa(int(sig))
}

// ToSyscallSignal converts sig, refusing signals that are not syscall.Signal.
func ToSyscallSignal(sig os.Signal) (syscall.Signal, error) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return 0, fmt.Errorf("signal %v is not a syscall.Signal", sig)
	}
	return s, nil
}
