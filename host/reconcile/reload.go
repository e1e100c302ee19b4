package reconcile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// reloadTarget sends the unit's reload signal (SIGUSR2) and waits until
// PostgREST logs "Config reloaded" (it does at every log-level) and is
// ready; "Failed reloading config" is an error.
func (l *Server) reloadTarget(ctx context.Context) (time.Duration, error) {
	log := l.cfg.TargetSpec.LogFile
	mark := fileSize(log)
	start := time.Now()
	if err := l.cfg.Ctl.Reload(ctx, l.cfg.TargetUnit); err != nil {
		return 0, err
	}
	deadline := start.Add(l.cfg.ReadyTimeout)
	for {
		tail := readFrom(log, mark)
		if i := bytes.Index(tail, []byte("Failed reloading config")); i >= 0 {
			line, _, _ := bytes.Cut(tail[i:], []byte("\n"))
			return 0, fmt.Errorf("config reload of %s: %s", l.cfg.TargetUnit, line)
		}
		if bytes.Contains(tail, []byte("Config reloaded")) {
			break
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("config reload of %s: no \"Config reloaded\" in %s after %v", l.cfg.TargetUnit, log, l.cfg.ReadyTimeout)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	p := systemd.Probe{AdminURL: l.cfg.AdminURL, URL: l.cfg.URL, Timeout: l.cfg.ReadyTimeout, Controller: l.cfg.Ctl, Unit: l.cfg.TargetUnit}
	if _, err := systemd.WaitReady(ctx, p); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

func fileSize(path string) int64 {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// readFrom reads a log from offset on (all of it when it was truncated);
// only a plain file of the lab's, never through a link (safefile).
func readFrom(path string, offset int64) []byte {
	b, err := safefile.ReadFile(path, safefile.Own())
	if err != nil {
		return nil
	}
	if int64(len(b)) < offset {
		return b
	}
	return b[offset:]
}
