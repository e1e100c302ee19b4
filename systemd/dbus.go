package systemd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

func (d *DBus) Kind() Kind {
	if d.system {
		return KindSystemdSystem
	}
	return KindSystemdUser
}

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
