package stack

import (
	"context"
	"fmt"
	"os"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Stack is a lab stack found in, or brought up in, a state directory.
type Stack struct {
	facts Facts
	ctrl  systemd.Controller // connected lazily by Controller
}

// Open finds the stack recorded in dir ("" = DefaultDir). It reads
// stack.json and makes sure logs/ is the lab's alone (see secureLogDir);
// methods taking a context connect to the supervisor.
func Open(dir string) (*Stack, error) {
	abs, err := AbsDir(dir)
	if err != nil {
		return nil, err
	}
	if err := checkDir(abs); err != nil {
		return nil, err
	}
	f, ok, err := readFacts(abs)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no lab stack in %s (run `lab stack up --dir %s` first)", abs, dir)
	}
	if _, err := os.Lstat(f.logDir()); err == nil && os.Geteuid() == 0 { // a stack brought up before logs/ was root's alone
		if err := secureLogDir(f.logDir()); err != nil {
			return nil, err
		}
	}
	return &Stack{facts: f}, nil
}

// checkDir fails with advice when dir exists but is not a usable directory.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state dir %s: %w (fix its permissions or choose another --dir)", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("state dir %s is not a directory (choose another --dir)", dir)
	}
	if _, err := os.ReadDir(dir); err != nil {
		return fmt.Errorf("state dir %s is not readable: %w (fix its permissions or choose another --dir)", dir, err)
	}
	return nil
}

// Dir is the stack's absolute state directory.
func (s *Stack) Dir() string { return s.facts.Dir }

// Facts returns a copy of what stack.json records.
func (s *Stack) Facts() Facts { return s.facts.clone() }

// Controller returns the supervisor the stack's units run under,
// connecting on first use.
func (s *Stack) Controller(ctx context.Context) (systemd.Controller, error) {
	if s.ctrl != nil {
		return s.ctrl, nil
	}
	c, err := reconnect(ctx, s.facts)
	if err != nil {
		return nil, err
	}
	s.ctrl = c
	return c, nil
}

// AdminURI connects to database db as the cluster's superuser over its Unix socket.
func (s *Stack) AdminURI(db string) string { return s.facts.adminURI(db) }

// Close releases the connection to the supervisor; the stack keeps running.
func (s *Stack) Close() error {
	if s.ctrl == nil {
		return nil
	}
	err := s.ctrl.Close()
	s.ctrl = nil
	return err
}
