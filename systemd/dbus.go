package systemd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	sd "github.com/coreos/go-systemd/v22/dbus"
	godbus "github.com/godbus/dbus/v5"
)

// Transports NewDBus can use (DBusOptions.Transport).
const (
	TransportPrivate = "private" // the manager's private socket, EXTERNAL auth, no bus daemon
	TransportBus     = "bus"     // the session bus (user) or system bus (system)
)

// DefaultCallTimeout bounds every controller call whose context has no
// earlier deadline. Stop and Restart add the unit's StopTimeout.
const DefaultCallTimeout = 30 * time.Second

// DBusOptions choose the manager NewDBus talks to.
type DBusOptions struct {
	// System selects the system manager (units in /etc/systemd/system);
	// false selects the calling user's manager (~/.config/systemd/user).
	System bool
	// Transport is TransportPrivate or TransportBus ("" = TransportPrivate).
	Transport string
	// UnitDir overrides where unit files and drop-ins are written.
	UnitDir string
	// Timeout bounds each call (0 = DefaultCallTimeout).
	Timeout time.Duration
}

// DBus controls units of a systemd manager over D-Bus (go-systemd).
type DBus struct {
	conn    *sd.Conn
	system  bool
	via     string
	unitDir string
	timeout time.Duration

	mu     sync.Mutex               // guards specs
	specs  map[string]time.Duration // unit -> stop timeout, for call deadlines
	closed bool
}

var _ Controller = (*DBus)(nil)

// NewDBus connects to a systemd manager and checks that it answers.
func NewDBus(ctx context.Context, opts DBusOptions) (*DBus, error) {
	if opts.Transport == "" {
		opts.Transport = TransportPrivate
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultCallTimeout
	}
	// godbus closes a connection when the context it was dialled with is
	// done: dial with one that is never cancelled; bound only the check.
	dialCtx := context.WithoutCancel(ctx)
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()

	var (
		conn *sd.Conn
		via  string
		err  error
	)
	switch {
	case opts.System && opts.Transport == TransportPrivate:
		via = "/run/systemd/private"
		conn, err = sd.NewSystemdConnectionContext(dialCtx)
	case opts.System && opts.Transport == TransportBus:
		via = "the system bus"
		conn, err = sd.NewSystemConnectionContext(dialCtx)
	case opts.Transport == TransportPrivate:
		via = filepath.Join(runtimeDir(), "systemd", "private")
		conn, err = sd.NewConnection(func() (*godbus.Conn, error) { return dialBus(dialCtx, "unix:path="+via, false) })
	case opts.Transport == TransportBus:
		addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
		if addr == "" {
			addr = "unix:path=" + filepath.Join(runtimeDir(), "bus")
		}
		via = "the session bus " + addr
		conn, err = sd.NewConnection(func() (*godbus.Conn, error) { return dialBus(dialCtx, addr, true) })
	default:
		return nil, fmt.Errorf("systemd: transport %q: allowed: %s, %s", opts.Transport, TransportPrivate, TransportBus)
	}
	if err != nil {
		return nil, fmt.Errorf("systemd: connect to %s manager via %s: %w", scope(opts.System), via, err)
	}
	if opts.Transport == TransportBus {
		// On a bus, systemd sends JobRemoved only to subscribers.
		if err := conn.Subscribe(); err != nil {
			conn.Close()
			return nil, fmt.Errorf("systemd: subscribe to %s manager via %s: %w", scope(opts.System), via, err)
		}
	}
	if _, err := conn.SystemStateContext(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("systemd: %s manager via %s does not answer: %w", scope(opts.System), via, err)
	}
	dir := opts.UnitDir
	if dir == "" {
		if dir, err = defaultUnitDir(opts.System); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return &DBus{conn: conn, system: opts.System, via: via, unitDir: dir, timeout: opts.Timeout,
		specs: map[string]time.Duration{}}, nil
}

// dialBus connects with EXTERNAL auth (the uid). A manager's private
// socket has no bus daemon, so no Hello there (hello=false).
func dialBus(ctx context.Context, addr string, hello bool) (*godbus.Conn, error) {
	conn, err := godbus.Dial(addr, godbus.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	if err := conn.Auth([]godbus.Auth{godbus.AuthExternal(strconv.Itoa(os.Getuid()))}); err != nil {
		conn.Close()
		return nil, err
	}
	if hello {
		if err := conn.Hello(); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

func scope(system bool) string {
	if system {
		return "system"
	}
	return "user"
}

func runtimeDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return d
	}
	return fmt.Sprintf("/run/user/%d", os.Getuid())
}

func defaultUnitDir(system bool) (string, error) {
	if system {
		return "/etc/systemd/system", nil
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "systemd", "user"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("systemd: user unit directory: %w", err)
	}
	return filepath.Join(home, ".config", "systemd", "user"), nil
}

func (d *DBus) Kind() string { return "systemd-" + scope(d.system) }

func (d *DBus) Describe() string {
	return fmt.Sprintf("systemd %s manager via %s (units in %s)", scope(d.system), d.via, d.unitDir)
}

// UnitDir is where this controller writes unit files.
func (d *DBus) UnitDir() string { return d.unitDir }

// Conn gives access to the underlying go-systemd connection for calls the
// Controller interface does not cover (e.g. SetUnitPropertiesContext).
func (d *DBus) Conn() *sd.Conn { return d.conn }

func (d *DBus) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.closed {
		d.closed = true
		d.conn.Close()
	}
	return nil
}

// callCtx bounds a call by the controller timeout plus extra.
func (d *DBus) callCtx(ctx context.Context, extra time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d.timeout+extra)
}

// stopTimeout is the unit's TimeoutStopSec=, from the spec this controller
// installed or else from the manager, so call deadlines leave room for it.
func (d *DBus) stopTimeout(ctx context.Context, name string) time.Duration {
	d.mu.Lock()
	t, ok := d.specs[name]
	d.mu.Unlock()
	if ok {
		return t
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	if p, err := d.conn.GetUnitTypePropertyContext(ctx, name, "Service", "TimeoutStopUSec"); err == nil {
		if us, ok := p.Value.Value().(uint64); ok && us > 0 && us < uint64(24*time.Hour/time.Microsecond) {
			return time.Duration(us) * time.Microsecond
		}
	}
	return DefaultStopTimeout
}

func (d *DBus) unitPath(name string) string { return filepath.Join(d.unitDir, name) }

// Install writes the unit file and reloads the manager; the unit must then
// load without errors.
func (d *DBus) Install(ctx context.Context, spec UnitSpec) error {
	text, err := RenderUnit(spec)
	if err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	if err := os.MkdirAll(d.unitDir, 0o755); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	if err := writeFileAtomic(d.unitPath(spec.Name), []byte(text)); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	d.mu.Lock()
	d.specs[spec.Name] = spec.stopTimeout()
	d.mu.Unlock()
	if err := d.daemonReload(ctx); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	return d.checkLoaded(ctx, "install", spec.Name)
}

func (d *DBus) checkLoaded(ctx context.Context, op, name string) error {
	all, err := d.conn.GetUnitPropertiesContext(ctx, name)
	if err != nil {
		return fmt.Errorf("%s %s: read LoadState: %w", op, name, err)
	}
	if ls, _ := all["LoadState"].(string); ls != "loaded" {
		return fmt.Errorf("%s %s: unit does not load: LoadState=%s %v (check %s and its drop-ins)",
			op, name, ls, all["LoadError"], d.unitPath(name))
	}
	return nil
}

func (d *DBus) daemonReload(ctx context.Context) error {
	if err := d.conn.ReloadContext(ctx); err != nil {
		return fmt.Errorf("daemon-reload of the %s manager: %w", scope(d.system), err)
	}
	return nil
}

// Uninstall stops the unit and removes its file and drop-ins.
func (d *DBus) Uninstall(ctx context.Context, name string) error {
	if err := validateUnitName(name); err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, d.stopTimeout(ctx, name))
	defer cancel()
	var errs []error
	if p, err := d.Properties(ctx, name); err == nil && p.ActiveState != "inactive" && p.ActiveState != "failed" {
		if err := d.Stop(ctx, name); err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range []string{d.unitPath(name), d.unitPath(name) + ".d"} {
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, fmt.Errorf("uninstall %s: %w", name, err))
		}
	}
	if err := d.daemonReload(ctx); err != nil {
		errs = append(errs, fmt.Errorf("uninstall %s: %w", name, err))
	}
	_ = d.conn.ResetFailedUnitContext(ctx, name) // fails when the unit is already gone
	d.mu.Lock()
	delete(d.specs, name)
	d.mu.Unlock()
	return errors.Join(errs...)
}

type jobFunc func(ctx context.Context, name, mode string, ch chan<- string) (int, error)

// job runs a start/stop/restart/reload job and waits for its result.
func (d *DBus) job(ctx context.Context, op, name string, extra time.Duration, fn jobFunc) error {
	if err := validateUnitName(name); err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, extra)
	defer cancel()
	if op != "stop" && op != "reload" {
		// A failed unit (or one that hit the start limit) must be reset before reuse.
		_ = d.conn.ResetFailedUnitContext(ctx, name)
	}
	ch := make(chan string, 1)
	if _, err := fn(ctx, name, "replace", ch); err != nil {
		return fmt.Errorf("%s %s: %w", op, name, err)
	}
	select {
	case res := <-ch:
		if res != "done" {
			return unitError(d, name, op, "job "+res, nil)
		}
		return nil
	case <-ctx.Done():
		return unitError(d, name, op, "no job result", ctx.Err())
	}
}

func (d *DBus) Start(ctx context.Context, name string) error {
	return d.job(ctx, "start", name, 0, d.conn.StartUnitContext)
}

func (d *DBus) Stop(ctx context.Context, name string) error {
	return d.job(ctx, "stop", name, d.stopTimeout(ctx, name), d.conn.StopUnitContext)
}

func (d *DBus) Restart(ctx context.Context, name string) error {
	return d.job(ctx, "restart", name, d.stopTimeout(ctx, name), d.conn.RestartUnitContext)
}

func (d *DBus) Reload(ctx context.Context, name string) error {
	return d.job(ctx, "reload", name, 0, d.conn.ReloadUnitContext)
}

// Signal sends sig to the unit's main process.
func (d *DBus) Signal(ctx context.Context, name string, sig os.Signal) error {
	s, err := toSyscallSignal(sig)
	if err != nil {
		return fmt.Errorf("signal %s: %w", name, err)
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	if err := d.conn.KillUnitWithTarget(ctx, name, sd.Main, int32(s)); err != nil {
		return fmt.Errorf("signal %s with %s: %w", name, signalName(s), err)
	}
	return nil
}

// Properties reads the unit's state and service properties in one call.
func (d *DBus) Properties(ctx context.Context, name string) (Props, error) {
	if err := validateUnitName(name); err != nil {
		return Props{}, err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	all, err := d.conn.GetAllPropertiesContext(ctx, name)
	if err != nil {
		return Props{}, fmt.Errorf("properties of %s: %w", name, err)
	}
	return propsFromMap(name, all), nil
}

func propsFromMap(name string, m map[string]any) Props {
	str := func(k string) string { s, _ := m[k].(string); return s }
	num := func(k string) int64 {
		switch v := m[k].(type) {
		case uint32:
			return int64(v)
		case int32:
			return int64(v)
		case uint64:
			return int64(v)
		case int64:
			return v
		}
		return 0
	}
	p := Props{
		Name:           name,
		LoadState:      str("LoadState"),
		ActiveState:    str("ActiveState"),
		SubState:       str("SubState"),
		Result:         str("Result"),
		MainPID:        int(num("MainPID")),
		ExecMainCode:   int(num("ExecMainCode")),
		ExecMainStatus: int(num("ExecMainStatus")),
		NRestarts:      int(num("NRestarts")),
		ControlGroup:   str("ControlGroup"),
	}
	if v, ok := m["MemoryCurrent"].(uint64); ok && v != ^uint64(0) {
		p.MemoryCurrent = v
	}
	return p
}

// SetDropIn writes <unit>.d/50-lab-<dropin>.conf and reloads the manager.
func (d *DBus) SetDropIn(ctx context.Context, name, dropin string, settings map[string]string) error {
	file, err := dropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	text, err := RenderDropIn(name, settings)
	if err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	dir := d.unitPath(name) + ".d"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("drop-in %s for %s: %w", file, name, err)
	}
	if err := writeFileAtomic(filepath.Join(dir, file), []byte(text)); err != nil {
		return fmt.Errorf("drop-in %s for %s: %w", file, name, err)
	}
	if err := d.daemonReload(ctx); err != nil {
		return fmt.Errorf("drop-in %s for %s: %w", file, name, err)
	}
	return d.checkLoaded(ctx, "drop-in "+file+" for", name)
}

func (d *DBus) RemoveDropIn(ctx context.Context, name, dropin string) error {
	file, err := dropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	err = os.Remove(filepath.Join(d.unitPath(name)+".d", file))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove drop-in %s of %s: %w", file, name, err)
	}
	return d.daemonReload(ctx)
}

func (d *DBus) RemoveLabDropIns(ctx context.Context, name string) ([]string, error) {
	if err := validateUnitName(name); err != nil {
		return nil, err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	removed, err := removeLabDropInFiles(d.unitPath(name) + ".d")
	if err != nil {
		return removed, fmt.Errorf("remove lab drop-ins of %s: %w", name, err)
	}
	if len(removed) > 0 {
		return removed, d.daemonReload(ctx)
	}
	return nil, nil
}

// LogTail reads the unit's LogFile (from StandardOutput=append: in its unit
// file) or, without one, asks journalctl.
func (d *DBus) LogTail(ctx context.Context, name string, n int) (string, error) {
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	if f := logFileOf(d.unitPath(name)); f != "" {
		return tailFile(f, n)
	}
	return journalTail(ctx, !d.system, name, n)
}

// logFileOf finds "StandardOutput=append:PATH" (or file:PATH) in a unit file.
func logFileOf(unitFile string) string {
	b, err := os.ReadFile(unitFile)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "StandardOutput=")
		if !ok {
			continue
		}
		for _, p := range []string{"append:", "file:", "truncate:"} {
			if f, ok := strings.CutPrefix(v, p); ok {
				return strings.ReplaceAll(f, "%%", "%")
			}
		}
	}
	return ""
}
