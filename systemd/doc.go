// Package systemd is systemd's own concern in the lab: the vocabulary every
// supervisor shares (Controller, UnitSpec, Props, UnitError, WaitReady),
// unit files, readiness, and the supervisor that uses systemd's D-Bus API
// (go-systemd, DBus). What runs on the server host and uses these (the
// agent, the reconcile that applies a variant, the local stack, telemetry,
// the profiler) lives in the host/ room.
//
// # The map
//
//	systemd                        Controller, UnitSpec, unit files, readiness; DBus (systemd over D-Bus)
//	systemd/supervisor             Connect: systemd over D-Bus when a manager answers, else direct
//	systemd/supervisor/direct      the direct supervisor: services as process groups, without systemd
//	systemd/units                  unit files for the agent (and the nightly tracker)
//	systemd/internal/servicetest   the test server and helpers these packages' tests share
//
// This package and its supervisors import nothing of the lab's domain
// but what they implement.
//
// # Choosing a manager
//
// supervisor.Connect tries, in order, the system manager (root only; units
// in /etc/systemd/system), the user manager over its private socket
// $XDG_RUNTIME_DIR/systemd/private (EXTERNAL auth, no bus daemon), the user
// manager over the session bus, and finally the direct supervisor
// (direct.New), and tells its Options.Logf which one it picked and why not
// the others. Options.Mode forces one. NewDBus and direct.New build them
// directly.
//
// # Units
//
// Install renders a UnitSpec (RenderUnit) with Type=exec, so a binary that
// cannot be executed fails the start job, and StartLimitIntervalSec=0, so
// the lab may restart as often as it likes; Start and Restart reset a failed
// unit first. A job result other than "done" is a *UnitError carrying the
// unit's state and the tail of its log (UnitSpec.LogFile, else the journal).
//
// # Drop-ins
//
// SetDropIn writes <unit>.d/50-lab-<name>.conf (CPUAffinity=, MemoryMax=,
// LimitNOFILE=, Environment=, ...); the settings apply at the next
// (re)start. Every drop-in the lab writes starts with LabDropInPrefix, so a
// run that was killed leaves nothing that RemoveLabDropIns, run on the next
// start-up, does not find. The direct supervisor applies Environment=,
// LimitNOFILE= (prlimit) and CPUAffinity= (taskset) and refuses the settings
// that need systemd's cgroups, such as MemoryMax=.
//
// # Readiness
//
// A start job is "done" before the service listens. WaitReady probes
// PostgREST's admin /ready, an HTTP request (over TCP or a Unix socket) or a
// bare connect, backing off from 5 ms to 100 ms, and returns the time to
// ready; given the Controller and unit it fails at once, with the log tail,
// when the unit dies instead.
//
// # Direct supervisor
//
// Without systemd, package systemd/supervisor/direct runs each service in its own
// session (setsid), so it outlives the lab process; see its documentation.
//
// # Use
//
// Run PostgREST as a unit, change its CPU affinity for one experiment,
// restart it and gate on readiness, then put everything back (the tests in
// behaviour_test.go, an external test package, do this against a real
// user manager and the direct supervisor):
//
//	ctl, err := supervisor.Connect(ctx, supervisor.Options{Logf: log.Printf})
//	defer ctl.Close()
//	unit := "lab-target.service"
//	ctl.RemoveLabDropIns(ctx, unit) // undo what a killed earlier run left
//	err = ctl.Install(ctx, systemd.UnitSpec{Name: unit,
//		ExecStart: []string{"/usr/local/bin/postgrest", "/etc/lab/postgrest.conf"},
//		LogFile:   "/var/log/lab/postgrest.log", ReloadSignal: "SIGUSR2", StopTimeout: 10 * time.Second})
//	err = ctl.SetDropIn(ctx, unit, "cpu", map[string]string{"CPUAffinity": "0"})
//	defer ctl.RemoveDropIn(ctx, unit, "cpu")
//	err = ctl.Restart(ctx, unit) // a *systemd.UnitError with the log tail
//	took, err := systemd.WaitReady(ctx, systemd.Probe{AdminURL: "http://127.0.0.1:3001",
//		Timeout: 30 * time.Second, Controller: ctl, Unit: unit})
//	p, err := ctl.Properties(ctx, unit) // MainPID, NRestarts, MemoryCurrent, ...
package systemd
