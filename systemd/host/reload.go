package host

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// reloadKeys returns the PostgREST keys in which the config the target
// runs differs from the one just written, and whether the variant can be
// applied by a config reload (SIGUSR2) instead of a restart: the target is
// the real PostgREST (postgrest-mini does not reload its config), the lab
// owns its unit and log (to see "Config reloaded"), the variant changes
// nothing but PostgREST keys, and every key that differs is reloadable per
// the catalogue. Which keys PostgREST 13 really reloads is proven on the
// binary by TestReloadableKeysOnRealPostgREST.
func (l *Server) reloadKeys(v lab.Variant, written []byte) ([]string, bool) {
	if l.cfg.Reference || l.cfg.TargetSpec == nil || l.cfg.TargetSpec.LogFile == "" || l.running == nil {
		return nil, false
	}
	if len(v.PostgreSQL) > 0 || len(v.Env) > 0 || len(v.DropIn) > 0 || v.Binary != "" || len(v.Args) > 0 ||
		l.pgDirty || l.pgRestarted || l.dropinSet || l.envSet || l.specDirty || l.restartNeeded {
		return nil, false
	}
	from, err1 := configs.Parse(l.cfg.Config, l.running)
	to, err2 := configs.Parse(l.cfg.Config, written)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	seen := map[string]bool{}
	var diff []string
	for _, k := range append(from.Keys(), to.Keys()...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		a, _ := from.Get(k)
		b, _ := to.Get(k)
		if a.String() == b.String() {
			continue
		}
		if key, ok := configs.Lookup(k); !ok || !key.Reloadable {
			return nil, false
		}
		diff = append(diff, k)
	}
	sort.Strings(diff)
	return diff, len(diff) > 0
}

// activate makes the target run the config just written: a config reload
// when reloadKeys allows it, else a restart; both gated on readiness. It
// returns a note for the variant's changes when it reloaded.
func (l *Server) activate(ctx context.Context, v lab.Variant) (time.Duration, []lab.Change, error) {
	written, err := os.ReadFile(l.cfg.Config)
	if err != nil {
		return 0, nil, fmt.Errorf("read target config: %w", err)
	}
	if keys, ok := l.reloadKeys(v, written); ok {
		took, err := l.reloadTarget(ctx)
		if err != nil {
			return 0, nil, err
		}
		l.running = written
		return took, []lab.Change{{Where: "note", Key: "applied by", To: "config reload (SIGUSR2), no restart: " + strings.Join(keys, ", ") + " reloadable"}}, nil
	}
	took, err := l.restartTarget(ctx)
	if err != nil {
		l.restartNeeded = true
		return 0, nil, err
	}
	l.running, l.restartNeeded = written, false
	return took, nil, nil
}

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
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// readFrom reads a log from offset on (all of it when it was truncated).
func readFrom(path string, offset int64) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	if int64(len(b)) < offset {
		return b
	}
	return b[offset:]
}
