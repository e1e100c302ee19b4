package stack

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// DefaultServesTimeout bounds WaitServes when no timeout is given. Real
// PostgREST needs about a second after its database was swapped (it loses
// its connections, retries, reloads its schema cache).
const DefaultServesTimeout = 30 * time.Second

// WaitServes waits until the stack's target serves the database as it is
// now: its admin /ready answers 200 and, when table is not empty,
// GET /<table>?limit=1 answers 2xx (before the target has reloaded its
// schema cache, PostgREST answers 404 PGRST205 for a new table). It
// returns at once when the stack has no target. The error names the probe,
// the last answer and the target's log.
func (s *Stack) WaitServes(ctx context.Context, table string, timeout time.Duration) (time.Duration, error) {
	f := s.facts
	if f.TargetUnit == "" || f.Port == 0 {
		return 0, nil
	}
	if timeout <= 0 {
		timeout = DefaultServesTimeout
	}
	ctrl, err := s.Controller(ctx)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	deadline := start.Add(timeout)
	probes := []systemd.Probe{{AdminURL: f.adminURL(), Controller: ctrl, Unit: f.TargetUnit}}
	if table != "" {
		probes = append(probes, systemd.Probe{URL: f.url() + "/" + url.PathEscape(table) + "?limit=1", Controller: ctrl, Unit: f.TargetUnit})
	}
	// Both in the same pass: a target that answered the table probe while
	// its pool was still reconnecting is probed again from /ready.
	for pass := 0; ; pass++ {
		passStart := time.Now()
		var err error
		for _, p := range probes {
			p.Timeout = time.Until(deadline)
			if p.Timeout <= 0 {
				err = fmt.Errorf("timed out")
				break
			}
			if _, err = systemd.WaitReady(ctx, p); err != nil {
				break
			}
		}
		if err != nil {
			return time.Since(start), fmt.Errorf("target %s does not serve the new schema after %v (log: %s): %w",
				f.url(), timeout, filepath.Join(f.logDir(), "target.log"), err)
		}
		if time.Since(passStart) < 50*time.Millisecond || pass == 10 {
			return time.Since(start), nil
		}
	}
}
