package telemetry

import "fmt"

// cgroupCPUSeconds reads a cgroup's CPU time: usage_usec from a v2
// cpu.stat, or nanoseconds from a v1 cpuacct.usage.
func cgroupCPUSeconds(path string, buf []byte) (float64, error) {
	b, err := readFile(path, buf)
	if err != nil {
		return 0, err
	}
	if v, ok := keyValue(b, "usage_usec"); ok {
		return float64(v) / 1e6, nil
	}
	if v, ok := atou(b); ok { // cpuacct.usage: one number, ns
		return float64(v) / 1e9, nil
	}
	return 0, fmt.Errorf("%s: no usage_usec", path)
}
