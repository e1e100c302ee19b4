package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/supervisor/direct"
)

// Options choose how Connect reaches a service manager.
type Options struct {
	// Mode forces a manager, one of systemd.ConnectModes; "" means
	// systemd.ModeAuto.
	Mode systemd.Mode
	// StateDir keeps the direct supervisor's state
	// ("" = $XDG_STATE_HOME/pgrst-lab/direct, i.e. ~/.local/state/pgrst-lab/direct).
	StateDir string
	// UnitDir overrides where the D-Bus controller writes unit files.
	UnitDir string
	// Timeout bounds each call (0 = systemd.DefaultCallTimeout).
	Timeout time.Duration
	// Logf, when set, is told which manager was chosen and why the others were not.
	Logf func(format string, args ...any)
}

// Connect returns a Controller for the first manager that answers, in the
// order of opts.Mode, and says through opts.Logf which one it picked.
func Connect(ctx context.Context, opts Options) (systemd.Controller, error) {
	type try struct {
		mode systemd.Mode
		open func() (systemd.Controller, error)
	}
	dbusTry := func(mode systemd.Mode, system bool, transport string) try {
		return try{mode, func() (systemd.Controller, error) {
			return systemd.NewDBus(ctx, systemd.DBusOptions{System: system, Transport: transport, UnitDir: opts.UnitDir, Timeout: opts.Timeout})
		}}
	}
	system := []try{dbusTry(systemd.ModeSystem, true, systemd.TransportPrivate), dbusTry(systemd.ModeSystem, true, systemd.TransportBus)}
	userPrivate := dbusTry(systemd.ModeUserPrivate, false, systemd.TransportPrivate)
	userSession := dbusTry(systemd.ModeUserSession, false, systemd.TransportBus)
	directTry := try{systemd.ModeDirect, func() (systemd.Controller, error) {
		dir := opts.StateDir
		if dir == "" {
			var err error
			if dir, err = defaultStateDir(); err != nil {
				return nil, err
			}
		}
		return direct.New(dir)
	}}

	var tries []try
	var skipped []string
	switch opts.Mode {
	case "", systemd.ModeAuto:
		if os.Geteuid() == 0 {
			tries = append(tries, system...)
		} else {
			skipped = append(skipped, "system manager skipped: not root, cannot write /etc/systemd/system")
		}
		tries = append(tries, userPrivate, userSession, directTry)
	case systemd.ModeSystem:
		tries = system
	case systemd.ModeUser:
		tries = []try{userPrivate, userSession}
	case systemd.ModeUserPrivate:
		tries = []try{userPrivate}
	case systemd.ModeUserSession:
		tries = []try{userSession}
	case systemd.ModeDirect:
		tries = []try{directTry}
	default:
		return nil, fmt.Errorf("systemd: connect mode %q: allowed: %s", opts.Mode, systemd.ModeList(systemd.ConnectModes))
	}
	var errs []error
	for _, t := range tries {
		ctl, err := t.open()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if opts.Logf != nil {
			why := ""
			if n := len(skipped) + len(errs); n > 0 {
				var reasons []string
				reasons = append(reasons, skipped...)
				for _, e := range errs {
					reasons = append(reasons, strings.TrimPrefix(e.Error(), "systemd: "))
				}
				why = "; not used: " + strings.Join(reasons, "; ")
			}
			opts.Logf("systemd: using the %s%s", ctl.Describe(), why)
		}
		return ctl, nil
	}
	return nil, fmt.Errorf("systemd: no service manager for mode %q: %w", opts.Mode, errors.Join(errs...))
}

func defaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "pgrst-lab", "direct"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("systemd: direct supervisor state dir: %w", err)
	}
	return filepath.Join(home, ".local", "state", "pgrst-lab", "direct"), nil
}
