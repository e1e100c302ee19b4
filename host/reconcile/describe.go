package reconcile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/host"
	"github.com/shirou/gopsutil/v3/mem"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Describe implements lab.Server.
func (l *Server) Describe(ctx context.Context) (lab.Host, lab.TargetInfo, error) {
	h := DescribeHost(ctx)
	if conn, err := l.connect(ctx); err == nil {
		_ = conn.QueryRow(ctx, "SHOW server_version").Scan(&h.PostgreSQL)
		conn.Close(ctx)
	}
	t := lab.TargetInfo{Binary: l.cfg.Binary, Reference: l.cfg.Reference, Supervisor: string(l.cfg.Ctl.Kind()), URL: l.cfg.URL,
		Unit: l.cfg.TargetUnit, Config: l.cfg.Config, Version: binaryVersion(ctx, l.cfg.Binary)}
	return h, t, nil
}

// DescribeHost reads the machine's facts with gopsutil.
func DescribeHost(ctx context.Context) lab.Host {
	h := lab.Host{OS: runtime.GOOS, GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), CgroupMode: cgroupMode()}
	if hi, err := host.InfoWithContext(ctx); err == nil {
		h.Hostname, h.Kernel, h.HostID = hi.Hostname, hi.KernelVersion, hi.HostID
		h.OS = strings.TrimSpace(hi.Platform + " " + hi.PlatformVersion)
	}
	if ci, err := cpu.InfoWithContext(ctx); err == nil && len(ci) > 0 {
		h.CPUModel = ci[0].ModelName
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		h.MemoryBytes = vm.Total
	}
	return h
}

func cgroupMode() string {
	switch {
	case exists("/sys/fs/cgroup/cgroup.controllers"):
		return "v2"
	case exists("/sys/fs/cgroup/unified"):
		return "hybrid"
	case exists("/sys/fs/cgroup/cpu"):
		return "v1"
	}
	return ""
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// binaryVersion asks the target for its version (`postgrest --version`),
// "" when it cannot say.
func binaryVersion(ctx context.Context, bin string) string {
	if bin == "" {
		return ""
	}
	v, _ := BinaryVersion(ctx, bin)
	return v
}

// BinaryVersion runs `bin --version` (3 s at most) and returns the first
// line of its output.
func BinaryVersion(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	v := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	if v == "" {
		return "", fmt.Errorf("%s --version printed nothing", bin)
	}
	return v, nil
}

// AdminURI is the superuser connection to the target's database, for
// what the lab itself sets up there (lab calibrate's pre-request
// functions).
func (l *Server) AdminURI() string { return l.cfg.AdminURI }

// Binary is the target's executable when a variant names none ("" when the
// target's executable is not known here).
func (l *Server) Binary() string { return l.cfg.Binary }

// BinaryConfigKeys runs `bin --dump-config` (3 s at most) and returns the
// config keys it prints: the keys that build knows. It runs without the
// caller's PGRST_* and PG* environment and with db-config off, so it reads
// no secret and reaches no database; only the keys' names are kept, never
// their values.
func BinaryConfigKeys(ctx context.Context, bin string) (map[string]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--dump-config")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PGRST_") && !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PGRST_DB_CONFIG=false", "PGHOST=/nonexistent")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s --dump-config: %w", bin, err)
	}
	keys := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		k, _, ok := strings.Cut(line, " = ")
		if ok && k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyz0123456789.-_") == "" {
			keys[k] = true
		}
	}
	return keys, nil
}
