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
// of which exec the service in place, keeping its PID, and CPUQuota=,
// AllowedCPUs=, MemoryMax= and MemoryHigh= (v2 only) through a cgroup of
// the unit's own, made directly in the kernel's cgroup file systems
// (cgroup*.go): /pgrst-lab/<state dir id>/<unit> in each hierarchy its
// controllers live in, found in /proc/self/mountinfo (pure v2: cpu.max,
// memory.max; hybrid or v1: cpu.cfs_quota_us, memory.limit_in_bytes and
// memsw, cpuset.cpus). The service is held by a small sh gate until it is
// in the cgroup, then execs. Props then report the cgroup (ControlGroup,
// MemoryCurrent), Result=oom-kill when the OOM killer killed in it, and
// the cgroup goes when the process does. A setting the host cannot apply
// (controller not mounted, no rights to create cgroups, MemoryHigh= on
// v1) is refused when it is installed or set (and by CheckSettings), with
// the reason; others, such as TasksMax=, need systemd. It imports nothing
// of the lab's domain.
//
//	d, err := direct.New(filepath.Join(stackDir, "supervisor"))
//	err = d.Install(ctx, systemd.UnitSpec{Name: "lab-target.service", ExecStart: argv})
//	err = d.Start(ctx, "lab-target.service")
package direct
