package stack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/supervisor"
)

// connect returns the controller for choice (auto, systemd, direct). The
// direct supervisor keeps its state in <dir>/supervisor, so any later lab
// process finds the stack's processes.
func connect(ctx context.Context, dir string, choice systemd.Mode, logf func(string, ...any)) (systemd.Controller, error) {
	direct := supervisor.Options{Mode: systemd.ModeDirect, StateDir: filepath.Join(dir, "supervisor")}
	user := supervisor.Options{Mode: systemd.ModeUser, Logf: logf}
	switch choice {
	case systemd.ModeDirect:
		return supervisor.Connect(ctx, direct)
	case systemd.ModeSystemd:
		c, err := supervisor.Connect(ctx, user)
		if err != nil {
			return nil, flatten(err, " (start a systemd user manager, or use --supervisor direct)")
		}
		return c, nil
	}
	c, uerr := supervisor.Connect(ctx, user)
	if uerr == nil {
		return c, nil
	}
	c, derr := supervisor.Connect(ctx, direct)
	if derr != nil {
		return nil, flatten(errors.Join(uerr, derr), "")
	}
	if logf != nil {
		logf("no systemd user manager reachable, supervising directly (%v)", flatten(uerr, ""))
	}
	return c, nil
}

// flatError keeps a joined error's chain but prints it on one line.
type flatError struct {
	msg string
	err error
}

func (e *flatError) Error() string { return e.msg }
func (e *flatError) Unwrap() error { return e.err }

func flatten(err error, advice string) error {
	return &flatError{msg: strings.ReplaceAll(err.Error(), "\n", "; ") + advice, err: err}
}

// reconnect returns the controller of the kind an existing stack runs under.
func reconnect(ctx context.Context, f Facts) (systemd.Controller, error) {
	switch f.Supervisor {
	case systemd.KindDirect:
		return connect(ctx, f.Dir, systemd.ModeDirect, nil)
	case systemd.KindSystemdUser:
		c, err := connect(ctx, f.Dir, systemd.ModeSystemd, nil)
		if err != nil {
			return nil, fmt.Errorf("the stack in %s runs under the systemd user manager: %w", f.Dir, err)
		}
		return c, nil
	}
	return nil, fmt.Errorf("%s: unknown supervisor %q (remove the file if no stack runs there)", filepath.Join(f.Dir, FactsFile), f.Supervisor)
}

// choiceOf maps a controller kind to the Options.Supervisor that selects it.
func choiceOf(kind systemd.Kind) systemd.Mode {
	if kind == systemd.KindDirect {
		return systemd.ModeDirect
	}
	return systemd.ModeSystemd
}
