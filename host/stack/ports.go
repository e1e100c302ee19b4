package stack

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
)

// freePort asks the kernel for a free TCP port on 127.0.0.1.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// checkPortFree fails with advice when port on 127.0.0.1 is taken.
func checkPortFree(port int, flag string) error {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("port %d on 127.0.0.1 is in use: stop what listens there or choose another with %s", port, flag)
		}
		return fmt.Errorf("port %d on 127.0.0.1: %w (choose another with %s)", port, err, flag)
	}
	return l.Close()
}

// pickPort returns want when given, else keep (the stack's previous port)
// when given, else a free port; want and keep must be free.
func pickPort(want, keep int, flag string) (int, error) {
	p := want
	if p == 0 {
		p = keep
	}
	if p == 0 {
		return freePort()
	}
	if err := checkPortFree(p, flag); err != nil {
		return 0, err
	}
	if afterPortCheck != nil {
		afterPortCheck(p)
	}
	return p, nil
}

// afterPortCheck lets tests take a port between the check and the bind.
var afterPortCheck func(port int)
