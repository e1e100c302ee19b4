package telemetry

import "fmt"

// OOMKills reads how many processes the OOM killer killed in the control
// group cg, from v2 memory.events (hybrid: under unified/, where the
// memory controller is usually not enabled) or v1 memory.oom_control. The
// counters live as long as the cgroup: systemd removes it when the unit
// stops, so read them while the service runs. ok is false when no
// counter exists for cg.
func (fs FS) OOMKills(cg string) (n uint64, ok bool, err error) {
	buf := make([]byte, 4096)
	for _, c := range []struct{ file, v1 string }{{"memory.events", ""}, {"memory.oom_control", "memory"}} {
		var p string
		if c.v1 == "" {
			p = fs.cgroupFile(cg, c.file)
		} else {
			p = fs.cgroupFile(cg, c.file, c.v1)
		}
		if p == "" {
			continue
		}
		b, err := readFile(p, buf)
		if err != nil {
			return 0, false, fmt.Errorf("oom counter: %w", err)
		}
		if v, found := keyValue(b, "oom_kill"); found {
			return v, true, nil
		}
	}
	return 0, false, nil
}
