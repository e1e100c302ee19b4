package stack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Twin is the stack's second target, for duet runs: the target's binary
// with a copy of its config on ports of its own, in its own unit, on the
// same PostgreSQL. Its state directory holds its own config journal and
// lock, so that a server side can manage it as it manages the target.
type Twin struct {
	Unit     string
	Spec     systemd.UnitSpec
	Config   string // <dir>/twin/postgrest.conf
	StateDir string // <dir>/twin
	URL      string
	AdminURL string
}

func (f Facts) twinDir() string        { return filepath.Join(f.Dir, "twin") }
func (f Facts) twinConfigPath() string { return filepath.Join(f.twinDir(), "postgrest.conf") }

// Twin starts the twin, or finds it running, and returns it. Its config is
// the target's as it is now (call it with the target's original config in
// place), with the twin's ports; it is written afresh on every call, and a
// running twin restarts onto it. Down stops and removes it with the rest.
func (s *Stack) Twin(ctx context.Context) (Twin, error) {
	f := &s.facts
	if f.TargetUnit == "" || f.Binary == "" {
		return Twin{}, fmt.Errorf("the stack in %s runs no target, so it has no twin for a duet: %s", f.Dir, f.NoTarget)
	}
	if _, err := s.Controller(ctx); err != nil {
		return Twin{}, err
	}
	name := twinUnitName(f.Dir)
	_, running, err := s.active(ctx, name)
	if err != nil {
		return Twin{}, err
	}
	if !running {
		if err := s.claim(ctx, name); err != nil {
			return Twin{}, err
		}
		if f.TwinPort, err = pickPort(0, f.TwinPort, "twin port"); err != nil {
			return Twin{}, err
		}
		if f.TwinAdminPort, err = pickPort(0, f.TwinAdminPort, "twin admin port"); err != nil {
			return Twin{}, err
		}
		for f.TwinAdminPort == f.TwinPort {
			if f.TwinAdminPort, err = freePort(); err != nil {
				return Twin{}, err
			}
		}
	}
	if err := os.MkdirAll(f.twinDir(), 0o755); err != nil {
		return Twin{}, fmt.Errorf("twin: %w", err)
	}
	if err := writeTwinConfig(*f); err != nil {
		return Twin{}, err
	}
	f.TwinUnit = name
	t := f.twin()
	if running {
		// Installed afresh: a twin of an older stack may run another spec.
		if err := s.ctrl.Install(ctx, t.Spec); err != nil {
			return Twin{}, fmt.Errorf("reinstall %s: %w", name, err)
		}
		if err := s.ctrl.Restart(ctx, name); err != nil {
			return Twin{}, fmt.Errorf("restart %s: %w", name, err)
		}
	} else {
		var rollback undo
		if err := s.startUnit(ctx, t.Spec, &rollback); err != nil {
			rollback.run(ctx)
			_ = writeFacts(*f)
			return Twin{}, err
		}
	}
	if err := writeFacts(*f); err != nil {
		return Twin{}, err
	}
	probe := systemd.Probe{AdminURL: t.AdminURL, Timeout: 30 * time.Second, Controller: s.ctrl, Unit: name}
	if _, err := systemd.WaitReady(ctx, probe); err != nil {
		return Twin{}, fmt.Errorf("twin %s did not become ready (log: %s): %w", name, t.Spec.LogFile, err)
	}
	if err := notRoot(ctx, s.ctrl, name); err != nil {
		return Twin{}, err
	}
	return t, nil
}

func (f Facts) twin() Twin {
	spec := targetSpec(f)
	spec.Name = f.TwinUnit
	spec.Description = "pgrst-lab twin target (" + filepath.Base(f.Binary) + ") for duet runs in " + f.Dir
	spec.ExecStart = []string{f.execPath(), f.twinConfigPath()}
	spec.LogFile = filepath.Join(f.logDir(), "twin.log")
	return Twin{Unit: f.TwinUnit, Spec: spec, Config: f.twinConfigPath(), StateDir: f.twinDir(),
		URL: "http://127.0.0.1:" + strconv.Itoa(f.TwinPort), AdminURL: "http://127.0.0.1:" + strconv.Itoa(f.TwinAdminPort)}
}

// writeTwinConfig writes the twin's config: the target's, on the twin's ports.
func writeTwinConfig(f Facts) error {
	src, err := os.ReadFile(f.configPath())
	if err != nil {
		return fmt.Errorf("twin: read the target's config: %w", err)
	}
	cf, err := configs.Parse(f.configPath(), src)
	if err != nil {
		return fmt.Errorf("twin: %w", err)
	}
	for k, v := range map[string]int{"server-port": f.TwinPort, "admin-server-port": f.TwinAdminPort} {
		if err := cf.Set(k, configs.Int(int64(v))); err != nil {
			return fmt.Errorf("twin: set %s: %w", k, err)
		}
	}
	out := append([]byte("# The twin of "+f.configPath()+" for duet runs (written by the lab; rewritten from the target's at every duet run).\n"), cf.Bytes()...)
	if err := writeTargetFile(f, f.twinConfigPath(), out); err != nil {
		return fmt.Errorf("twin: %w", err)
	}
	return nil
}
