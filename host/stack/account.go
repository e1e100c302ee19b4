package stack

import (
	"context"
	"fmt"
	"os"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// useTarget settles who runs the target and what it runs: the account
// (never root: runas.Target), a state directory it can enter, and the
// binary checked and pinned for it (runas.Account.Pin: a file no user but
// root and the lab's own could replace; as root, the lab's copy of it in
// the store, which is what the unit runs).
func useTarget(ctx context.Context, f *Facts, o Options) (runas.Account, error) {
	a, err := runas.Target(ctx, o.TargetUser)
	if err != nil {
		return runas.Account{}, err
	}
	if err := a.CanEnter(f.Dir); err != nil {
		return runas.Account{}, fmt.Errorf("state dir %s: the target runs as %s: %w (chmod o+x that directory, or choose a --dir it can reach)", f.Dir, a.Name, err)
	}
	store, err := runas.DefaultStore()
	if err != nil {
		return runas.Account{}, err
	}
	exe, err := a.Pin(f.Binary, store)
	if err != nil {
		return runas.Account{}, err
	}
	f.TargetUser, f.Staged = a.Name, ""
	if exe.Path != f.Binary {
		f.Staged = exe.Path
	}
	return a, nil
}

// targetAccount is the account recorded in stack.json.
func (f Facts) targetAccount() (runas.Account, error) {
	if f.TargetUser == "" {
		return runas.Current()
	}
	a, err := runas.Lookup(f.TargetUser)
	if err != nil {
		return runas.Account{}, fmt.Errorf("target user %s of the stack in %s: %w", f.TargetUser, f.Dir, err)
	}
	return a, nil
}

// unitUser is the User= of the target's units: "" when the target runs
// as the lab's own user (a user manager may not switch users).
func (f Facts) unitUser() string {
	if a, err := f.targetAccount(); err == nil && a.Self() {
		return ""
	}
	return f.TargetUser
}

// writeTargetFile writes a file the target reads (its config, which may
// hold secrets): readable by the lab's user and, through its group, by
// the target's account, by no one else.
func writeTargetFile(f Facts, path string, data []byte) error {
	o := atomicfile.Options{Mode: 0o600}
	if a, err := f.targetAccount(); err == nil && !a.Self() {
		o.Mode, o.Owner = 0o640, &atomicfile.Owner{UID: os.Geteuid(), GID: a.GID}
	}
	if err := atomicfile.Write(path, data, o); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
