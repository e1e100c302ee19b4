package telemetry

// Processes lists the PIDs of a source's processes now: its cgroup's
// processes, or RootPID and its descendants.
func (fs FS) Processes(src Source) ([]int, error) {
	buf := make([]byte, 64*1024)
	if src.ControlGroup != "" {
		return cgroupProcs(fs.cgroupFile(src.ControlGroup, "cgroup.procs", "systemd", "pids", "memory"), buf, nil)
	}
	return fs.treeProcs(src.RootPID, buf, nil)
}
