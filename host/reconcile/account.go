package reconcile

import (
	"context"
	"fmt"
	"os"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// runBinary is what the target's unit runs for a binary (a variant's, or
// the stack's own): refused when a user other than root and the lab's own
// could replace it; as root, the lab's copy of the bytes that were checked
// (runas.Account.Pin). It is asked at every apply, so a binary is checked
// before each start, not once; an unchanged one is not copied again.
func (l *Server) runBinary(path string) (string, error) {
	exe, err := l.pin(path)
	if err != nil {
		return "", &capability.Error{Code: capability.Never, Where: "binary", Msg: err.Error()}
	}
	return exe.Path, nil
}

// pin checks a binary for the target's account (runas.Account.Pin).
func (l *Server) pin(path string) (runas.Executable, error) {
	a, err := l.targetAccount()
	if err != nil {
		return runas.Executable{}, err
	}
	store, err := runas.DefaultStore()
	if err != nil {
		return runas.Executable{}, err
	}
	return a.Pin(path, store)
}

// targetAccount is who runs the target: Config.TargetUser, else the
// account runas.Target gives (the lab's own user, or as root the
// unprivileged one it uses).
func (l *Server) targetAccount() (runas.Account, error) {
	if l.cfg.TargetUser == "" {
		return runas.Target(context.Background(), "")
	}
	a, err := runas.Lookup(l.cfg.TargetUser)
	if err != nil {
		return runas.Account{}, fmt.Errorf("target user %s: %w", l.cfg.TargetUser, err)
	}
	return a, nil
}

// targetNotRoot fails when the target's main process runs as root, however
// it was started: the lab measures PostgREST only as an unprivileged user.
func (l *Server) targetNotRoot(ctx context.Context) error {
	p, err := l.cfg.Ctl.Properties(ctx, l.cfg.TargetUnit)
	if err != nil {
		return fmt.Errorf("status of %s: %w", l.cfg.TargetUnit, err)
	}
	if p.ActiveState != "active" {
		return nil
	}
	return runas.NotRoot(ctx, "target "+l.cfg.TargetUnit, p.MainPID)
}

// ghcStatsOwner is who writes the GHC statistics file: the target's account.
func (l *Server) ghcStatsOwner() (uid, gid int, err error) {
	if l.cfg.TargetUser == "" {
		return os.Geteuid(), os.Getegid(), nil
	}
	a, err := runas.Lookup(l.cfg.TargetUser)
	if err != nil {
		return 0, 0, fmt.Errorf("target user %s: %w", l.cfg.TargetUser, err)
	}
	return a.UID, a.GID, nil
}
