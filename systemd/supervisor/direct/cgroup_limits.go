package direct

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
)

// cgroupSettings are the [Service] settings the direct supervisor applies
// through a cgroup of the unit's own, and the controller each needs.
var cgroupSettings = map[string]string{
	"CPUQuota":    "cpu",
	"AllowedCPUs": "cpuset",
	"MemoryMax":   "memory",
	"MemoryHigh":  "memory",
}

// cfsPeriod is the CFS period systemd uses for CPUQuota= (100 ms).
const cfsPeriod = 100_000

// cgWrite is one value written to a control file of the unit's cgroup in
// the hierarchy of controller ctl. optional files are skipped when the
// kernel has none (memory.memsw.* without swap accounting).
type cgWrite struct {
	ctl, file, value string
	optional         bool
}

// limitWrites turns the cgroup settings among settings into control-file
// writes for l, in the order they must be made; an error names the
// setting and says why this host cannot apply it.
func limitWrites(l layout, settings map[string]string, memTotal func() (uint64, error)) ([]cgWrite, error) {
	var out []cgWrite
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		ctl, ok := cgroupSettings[k]
		if !ok {
			continue
		}
		v := settings[k]
		_, v2 := l.hierarchy(ctl)
		if m, _ := l.hierarchy(ctl); m == "" {
			return nil, fmt.Errorf("%s=%s needs the %s cgroup controller, which this kernel does not offer (%s)", k, v, ctl, l.describe())
		}
		w, err := settingWrites(k, v, v2, memTotal)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w", k, v, err)
		}
		for i := range w {
			w[i].ctl = ctl
		}
		out = append(out, w...)
	}
	return out, nil
}

// settingWrites is one setting's files: v2's (cpu.max, memory.max,
// memory.high, cpuset.cpus) or v1's (cpu.cfs_*, memory.limit_in_bytes and
// memory.memsw.limit_in_bytes, cpuset.cpus).
func settingWrites(key, v string, v2 bool, memTotal func() (uint64, error)) ([]cgWrite, error) {
	switch key {
	case "CPUQuota":
		pct, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if err != nil || !strings.HasSuffix(v, "%") || pct < 0 {
			return nil, fmt.Errorf("not a percentage of one CPU (e.g. 50%%)")
		}
		quota := max(int64(pct/100*cfsPeriod+0.5), 1000) // the kernel's minimum is 1 ms
		if v2 {
			return []cgWrite{{file: "cpu.max", value: fmt.Sprintf("%d %d", quota, cfsPeriod)}}, nil
		}
		return []cgWrite{{file: "cpu.cfs_period_us", value: strconv.Itoa(cfsPeriod)},
			{file: "cpu.cfs_quota_us", value: strconv.FormatInt(quota, 10)}}, nil
	case "AllowedCPUs":
		cpus, err := cpulist.Parse(v)
		if err != nil {
			return nil, err
		}
		slices.Sort(cpus)
		return []cgWrite{{file: "cpuset.cpus", value: cpulist.Format(cpus)}}, nil
	case "MemoryMax", "MemoryHigh":
		b, err := memoryBytes(v, memTotal)
		if err != nil {
			return nil, err
		}
		if v2 {
			file := map[string]string{"MemoryMax": "memory.max", "MemoryHigh": "memory.high"}[key]
			if b == "" {
				b = "max"
			}
			return []cgWrite{{file: file, value: b}}, nil
		}
		if key == "MemoryHigh" {
			return nil, fmt.Errorf("needs cgroup v2's memory.high; this host's memory controller is cgroup v1 (use MemoryMax=)")
		}
		if b == "" {
			b = "-1"
		}
		// The limit first: memsw may not go below it; then memsw, so that
		// swap does not stretch the limit.
		return []cgWrite{{file: "memory.limit_in_bytes", value: b},
			{file: "memory.memsw.limit_in_bytes", value: b, optional: true}}, nil
	}
	return nil, fmt.Errorf("not a cgroup setting")
}

// memoryBytes reads a systemd size (1024-based K, M, G, T; a percentage
// of physical memory; infinity, returned as "").
func memoryBytes(v string, memTotal func() (uint64, error)) (string, error) {
	if v == "infinity" {
		return "", nil
	}
	if p, ok := strings.CutSuffix(v, "%"); ok {
		pct, err := strconv.ParseFloat(p, 64)
		if err != nil || pct < 0 || pct > 100 {
			return "", fmt.Errorf("not a percentage of physical memory (0..100%%)")
		}
		total, err := memTotal()
		if err != nil {
			return "", err
		}
		return strconv.FormatUint(uint64(float64(total)*pct/100), 10), nil
	}
	mult := uint64(1)
	if n := len(v); n > 0 {
		if i := strings.IndexByte("KMGT", v[n-1]); i >= 0 {
			mult = 1 << (10 * (i + 1))
			v = v[:n-1]
		}
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 {
		return "", fmt.Errorf("not a size (bytes with K, M, G or T, a percentage or infinity)")
	}
	return strconv.FormatUint(n*mult, 10), nil
}

// hostMemTotal is MemTotal from /proc/meminfo, in bytes.
func hostMemTotal() (uint64, error) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("physical memory: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, err := strconv.ParseUint(f[0], 10, 64)
				if err == nil {
					return kb * 1024, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("physical memory: no MemTotal in /proc/meminfo")
}
