package main

import (
	"context"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
)

func init() {
	register(command{name: "restore", summary: "put back configs a killed run left changed", run: cmdRestore})
}

const restoreUsage = `restore [--dir DIR]

Restores, byte for byte, every config file and PostgreSQL setting that a
run killed in the middle left changed (from the journal in the stack's
state directory), removes the lab's unit drop-ins, reinstalls the target's
unit and restarts it. 'lab run' does the same on start; this does it by hand.`

func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("restore", restoreUsage, stdout)
	dir := fs.String("dir", stack.DefaultDir, "state directory of the stack")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	s, err := stack.Open(*dir)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer s.Close()
	st, err := recoverStack(ctx, s, stdout)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if st.Target == nil {
		return nil
	}
	fmt.Fprintln(stdout, "target config is the original; target running at", st.URL)
	return nil
}

// recoverStack restores what a killed run left in the stack (journal,
// drop-ins, swapped binary), saying so; it does nothing when nothing is left.
func recoverStack(ctx context.Context, s *stack.Stack, out io.Writer) (stack.Status, error) {
	st, err := s.Status(ctx)
	if err != nil {
		return st, err
	}
	j, err := configs.OpenJournal(st.Dir)
	if err != nil {
		return st, err
	}
	pending := len(j.Pending()) > 0
	if st.Target == nil {
		if pending {
			_, err = j.Restore()
		}
		return st, err
	}
	l, err := reconcile.New(ctx, stackLocalConfig(s, st, out))
	if err != nil {
		return st, err
	}
	l.Close()
	return st, nil
}
