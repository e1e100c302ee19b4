// Package direct is the direct supervisor: it runs the lab's services
// without systemd, behind the same systemd.Controller the D-Bus controller
// implements, so the rest of the lab does not know which one it has.
// supervisor.Connect picks it when no systemd manager answers, or when
// asked for it (lab stack up --supervisor direct).
//
// Each service runs in its own session and process group (setsid), so it
// outlives the lab process. Its spec, drop-ins and PID are JSON files in a
// state dir (<unit>.json, next to <unit>.lock and, without a LogFile,
// <unit>.log), so a later lab process can inspect, stop or restart it.
// Stop sends KillSignal to the process group and SIGKILL after the stop
// timeout; Properties come from the state file and /proc (sysctl on
// macOS).
//
// Of the drop-in settings it applies Environment= (SetEnvironment),
// LimitNOFILE= (through prlimit) and CPUAffinity= (through taskset), both
// of which exec the service in place, keeping its PID; settings that need
// systemd's cgroups, such as MemoryMax=, are refused with an error that
// lists what is supported (applied, in exec.go). It imports nothing of
// the lab's domain.
//
//	d, err := direct.New(filepath.Join(stackDir, "supervisor"))
//	err = d.Install(ctx, systemd.UnitSpec{Name: "lab-target.service", ExecStart: argv})
//	err = d.Start(ctx, "lab-target.service")
package direct
