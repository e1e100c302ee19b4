package systemd

import (
	"context"
	"os"
	"time"
)

// UnitSpec describes a service the lab installs and controls. The D-Bus
// controller renders it as a unit file; the direct supervisor runs it as a
// process group.
type UnitSpec struct {
	Name         string // unit name, e.g. "lab-target.service"
	Description  string
	ExecStart    []string // argv; ExecStart[0] is an absolute path
	User         string   // run as this user ("" = the lab's user)
	WorkingDir   string
	Environment  map[string]string
	LogFile      string            // stdout+stderr appended here ("" = journal / discard)
	Restart      string            // systemd Restart= ("" = "no")
	KillSignal   string            // "" = SIGTERM; e.g. "SIGINT" for PostgreSQL fast shutdown
	ReloadSignal string            // signal Reload sends to the main process ("" = Reload unsupported), e.g. "SIGUSR2"
	StopTimeout  time.Duration     // 0 = 10s; then SIGKILL
	Extra        map[string]string // further [Service] settings, e.g. MemoryMax, CPUAffinity
	Sandbox      *Sandbox          // nil: run it as it is
}

// Sandbox confines a service that runs code the lab did not write (the
// target): it gains no privilege (NoNewPrivileges=yes; as root, an empty
// CapabilityBoundingSet=) and, when Namespaces is set, sees the file
// system read-only (ProtectSystem=strict), no home directories
// (ProtectHome=tmpfs) and a /tmp of its own (PrivateTmp=yes), with
// Writable and ReadOnly bound in where they are (BindPaths=,
// BindReadOnlyPaths=; a path that is missing is skipped). Namespaces needs
// a manager that runs as root. The direct supervisor sets no_new_privs and
// empties the bounding set (runas.StartConfined); it makes no mount
// namespace.
type Sandbox struct {
	Namespaces bool
	Writable   []string // absolute paths the service may write (file modes permitting)
	ReadOnly   []string // absolute paths it may read that may lie under /tmp or a home
}

// Props are the service properties the lab reads from a unit.
type Props struct {
	Name           string
	LoadState      string // loaded, not-found, ... ("loaded" or "not-found" for the direct supervisor)
	ActiveState    string // active, inactive, failed, activating, deactivating
	SubState       string
	Result         string // success, exit-code, signal, oom-kill, start-limit-hit, ...
	MainPID        int
	ExecMainCode   int // CLD_EXITED=1, CLD_KILLED=2, CLD_DUMPED=3
	ExecMainStatus int // exit status or signal number
	NRestarts      int
	ControlGroup   string // e.g. /app.slice/lab-target.service (direct supervisor: its own cgroup, "" without cgroup settings)
	MemoryCurrent  uint64 // bytes, 0 when unknown (direct supervisor: its cgroup's, else RSS of the main process only)
}

// SettingsChecker is a Controller that can tell, before anything is
// changed, whether it can apply [Service] settings to a unit on this host
// (the direct supervisor: its cgroup settings need the controllers
// mounted and the rights to create cgroups). A controller that is not one
// applies every setting ValidateSettings accepts (systemd).
type SettingsChecker interface {
	CheckSettings(ctx context.Context, unit string, settings map[string]string) error
}

// Controller controls services. Every method takes a context; errors name
// the unit and, when a start or restart fails, include the tail of its log.
type Controller interface {
	// Kind says which implementation this is (KindSystemdUser, KindSystemdSystem, KindDirect).
	Kind() Kind
	// Describe says, for people, which manager this is and how it is reached,
	// e.g. "systemd user manager via /run/user/0/systemd/private".
	Describe() string
	// Install writes (or replaces) the unit and makes the manager see it.
	Install(ctx context.Context, spec UnitSpec) error
	// Uninstall stops the unit if running and removes it and its drop-ins.
	Uninstall(ctx context.Context, name string) error
	Start(ctx context.Context, name string) error
	Stop(ctx context.Context, name string) error
	Restart(ctx context.Context, name string) error
	// Reload asks the running unit to reload its configuration (ExecReload, i.e. UnitSpec.ReloadSignal).
	Reload(ctx context.Context, name string) error
	// Signal sends a signal to the unit's main process (e.g. SIGUSR2 to reload PostgREST's config).
	Signal(ctx context.Context, name string, sig os.Signal) error
	Properties(ctx context.Context, name string) (Props, error)
	// SetDropIn writes drop-in "name.d/<dropin>.conf" with [Service] settings and reloads the manager.
	// LabDropInPrefix is added to dropin when missing. Settings apply at the next (re)start.
	SetDropIn(ctx context.Context, name, dropin string, settings map[string]string) error
	RemoveDropIn(ctx context.Context, name, dropin string) error
	// SetEnvironment sets extra environment variables (KEY=VALUE
	// assignments, each checked and kept as one list element) for the
	// unit's next (re)start, under drop-in <dropin>; an empty list removes
	// them. RemoveDropIn and RemoveLabDropIns remove them too. Environment=
	// is refused in drop-in settings: a joined line would be parsed again.
	SetEnvironment(ctx context.Context, name, dropin string, env []string) error
	// RemoveLabDropIns removes every drop-in of the unit whose name starts
	// with LabDropInPrefix and returns their names; run it on start-up to
	// undo what a killed run left behind.
	RemoveLabDropIns(ctx context.Context, name string) ([]string, error)
	// LogTail returns the last n lines of the unit's output.
	LogTail(ctx context.Context, name string, n int) (string, error)
	Close() error
}
