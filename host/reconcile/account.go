package reconcile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// stagedBinary is a binary a variant named and the copy its target's
// account runs (the same path when that account reaches the original).
type stagedBinary struct {
	size  int64
	mtime time.Time
	path  string
}

// variantBinary is the path the target's unit runs for a variant's binary:
// refused when a user other than root and the lab's own could replace it
// (runas.CheckBinary); copied into <state dir>/bin when the target's
// account cannot reach it (a build under root's home). A copy is made once
// per binary while the file is unchanged.
func (l *Server) variantBinary(path string) (string, error) {
	if err := runas.CheckBinary(path); err != nil {
		return "", &capability.Error{Code: capability.Never, Where: "binary", Msg: err.Error()}
	}
	if l.cfg.TargetUser == "" {
		return path, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("binary %s: %w", path, err)
	}
	l.stageMu.Lock()
	defer l.stageMu.Unlock()
	if s, ok := l.staged[path]; ok && s.size == fi.Size() && s.mtime.Equal(fi.ModTime()) {
		return s.path, nil
	}
	a, err := runas.Lookup(l.cfg.TargetUser)
	if err != nil {
		return "", fmt.Errorf("target user %s: %w", l.cfg.TargetUser, err)
	}
	out, err := runas.Stage(path, filepath.Join(l.cfg.StateDir, "bin"), a)
	if err != nil {
		return "", err
	}
	if l.staged == nil {
		l.staged = map[string]stagedBinary{}
	}
	l.staged[path] = stagedBinary{size: fi.Size(), mtime: fi.ModTime(), path: out}
	return out, nil
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
