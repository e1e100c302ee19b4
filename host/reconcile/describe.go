package reconcile

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/host"
	"github.com/shirou/gopsutil/v3/mem"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
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
		Unit: l.cfg.TargetUnit, Config: l.cfg.Config, Version: l.binaryVersion(ctx, l.cfg.Binary)}
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

// binaryVersion asks bin for its version as the target's account, ""
// when it cannot say.
func (l *Server) binaryVersion(ctx context.Context, bin string) string {
	if bin == "" {
		return ""
	}
	a, err := l.targetAccount()
	if err != nil {
		return ""
	}
	v, _ := versionAs(ctx, a, bin)
	return v
}

// BinaryVersion asks bin for its version (`bin --version`, the first line
// of its output) as the account the target runs as (runas.Target), after
// checking it (runas.Account.Pin): the lab runs no binary it did not
// write as root, not even to ask its version.
func BinaryVersion(ctx context.Context, bin string) (string, error) {
	a, err := runas.Target(ctx, "")
	if err != nil {
		return "", err
	}
	return versionAs(ctx, a, bin)
}

func versionAs(ctx context.Context, a runas.Account, bin string) (string, error) {
	out, err := probe(ctx, a, bin, nil, "--version")
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	if v == "" {
		return "", fmt.Errorf("%s --version printed nothing", bin)
	}
	return v, nil
}

// probe checks bin for a and runs it with args and env as a
// (runas.Account.Output).
func probe(ctx context.Context, a runas.Account, bin string, env []string, args ...string) ([]byte, error) {
	store, err := runas.DefaultStore()
	if err != nil {
		return nil, err
	}
	exe, err := a.Pin(bin, store)
	if err != nil {
		return nil, err
	}
	return a.Output(ctx, exe, env, args...)
}

// AdminURI is the superuser connection to the target's database, for
// what the lab itself sets up there (lab calibrate's pre-request
// functions).
func (l *Server) AdminURI() string { return l.cfg.AdminURI }

// Binary is the target's executable when a variant names none ("" when the
// target's executable is not known here).
func (l *Server) Binary() string { return l.cfg.Binary }

// BinaryConfigKeys runs `bin --dump-config` as the target's account
// (BinaryVersion says how) and returns the config keys it prints: the keys
// that build knows. It runs with an environment of its own (no PGRST_* or
// PG* variable of the caller's) and db-config off, so it reads no secret
// and reaches no database; only the keys' names are kept, never their
// values.
func BinaryConfigKeys(ctx context.Context, bin string) (map[string]bool, error) {
	a, err := runas.Target(ctx, "")
	if err != nil {
		return nil, err
	}
	out, err := probe(ctx, a, bin, []string{"PGRST_DB_CONFIG=false", "PGHOST=/nonexistent"}, "--dump-config")
	if err != nil {
		return nil, err
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
