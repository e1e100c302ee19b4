package telemetry

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/shirou/gopsutil/v3/common"
	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/mem"
)

// MachineSample is whole-machine CPU and memory at one instant.
type MachineSample struct {
	T              time.Time
	CPUBusySeconds float64 // all CPUs, everything but idle and iowait, since boot
	CPUSeconds     float64 // all CPUs, everything, since boot
	StealSeconds   float64 // all CPUs, time the hypervisor gave to others while this machine wanted to run, since boot
	MemTotal       uint64
	MemUsed        uint64
	MemAvailable   uint64
}

// readMachine reads /proc/stat and /proc/meminfo through gopsutil (under
// fs.Proc, so fixtures work too).
func (fs FS) readMachine(ctx context.Context) (MachineSample, error) {
	if fs.Proc != DefaultFS.Proc {
		ctx = context.WithValue(ctx, common.EnvKey, common.EnvMap{common.HostProcEnvKey: filepath.Clean(fs.Proc)})
	}
	ts, err := cpu.TimesWithContext(ctx, false)
	if err != nil || len(ts) == 0 {
		return MachineSample{}, fmt.Errorf("machine cpu times: %v", err)
	}
	t := ts[0]
	idle := t.Idle + t.Iowait
	all := t.User + t.System + t.Nice + t.Irq + t.Softirq + t.Steal + idle // guest is inside user
	vm, err := mem.VirtualMemoryWithContext(ctx)
	if err != nil {
		return MachineSample{}, fmt.Errorf("machine memory: %w", err)
	}
	return MachineSample{
		CPUBusySeconds: all - idle,
		CPUSeconds:     all,
		StealSeconds:   t.Steal,
		MemTotal:       vm.Total,
		MemUsed:        vm.Total - vm.Available,
		MemAvailable:   vm.Available,
	}, nil
}
