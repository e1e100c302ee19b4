package direct

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"os/user"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// applied are the [Service] settings the direct supervisor applies, and
// how; every other one needs systemd. taskset and prlimit exec the service
// in place (command), keeping its PID; the cgroup settings put it in a
// cgroup of its own (cgroupSettings, cgroup.go) before it execs.
var applied = map[string]string{
	"CPUAffinity": "via taskset(1)",
	"LimitNOFILE": "via prlimit(1)",
	"CPUQuota":    "via the cpu cgroup controller",
	"AllowedCPUs": "via the cpuset cgroup controller",
	"MemoryMax":   "via the memory cgroup controller",
	"MemoryHigh":  "via the memory cgroup controller (cgroup v2 only)",
}

// checkDirectSettings refuses a setting the direct supervisor cannot
// apply, naming the ones it can.
func checkDirectSettings(unit, what string, m map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if applied[k] == "" {
			return fmt.Errorf("unit %s: %s %s= needs systemd; the direct supervisor supports only %s",
				unit, what, k, strings.Join(slices.Sorted(maps.Keys(applied)), ", "))
		}
	}
	return nil
}

// checkSettings is checkDirectSettings and, for the cgroup settings, what
// this host allows: the controller mounted, the value in a form its
// cgroup version takes, the lab's cgroup parent writable. It runs when a
// setting is installed or set, so a sweep fails before its first trial,
// not trial by trial.
func (d *Supervisor) checkSettings(unit, what string, m map[string]string) error {
	if err := checkDirectSettings(unit, what, m); err != nil {
		return err
	}
	if _, err := d.cgroupWrites(m); err != nil {
		return fmt.Errorf("unit %s: %s: the direct supervisor cannot apply it here: %w", unit, what, err)
	}
	return nil
}

// cgroupWrites are the control-file writes m's cgroup settings need
// (none without one), checked against this host's layout and rights.
func (d *Supervisor) cgroupWrites(m map[string]string) ([]cgWrite, error) {
	has := false
	for k := range m {
		has = has || cgroupSettings[k] != ""
	}
	if !has {
		return nil, nil
	}
	l, err := d.layout()
	if err != nil {
		return nil, err
	}
	writes, err := limitWrites(l, m, hostMemTotal)
	if err != nil {
		return nil, err
	}
	if err := checkCgroupAccess(l, l.controllers(writes)); err != nil {
		return nil, fmt.Errorf("%s: %w", strings.Join(cgroupKeys(m), "=, ")+"=", err)
	}
	return writes, nil
}

// cgroupKeys are m's cgroup settings, sorted.
func cgroupKeys(m map[string]string) []string {
	var ks []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if cgroupSettings[k] != "" {
			ks = append(ks, k)
		}
	}
	return ks
}

// CheckSettings reports whether the direct supervisor can apply settings
// to unit on this host (systemd.SettingsChecker): what a run asks before
// its first trial.
func (d *Supervisor) CheckSettings(ctx context.Context, unit string, settings map[string]string) error {
	if err := systemd.ValidateSettings(unit, "drop-in", settings); err != nil {
		return err
	}
	return d.checkSettings(unit, "drop-in", settings)
}

// command builds the process for st: argv (wrapped in prlimit/taskset for
// LimitNOFILE=/CPUAffinity=, which exec the service in place, keeping the
// PID), environment, credentials and a new session.
func (d *Supervisor) command(st *directState, logf *os.File) (*exec.Cmd, error) {
	name := st.Spec.Name
	settings, extraEnv := st.settings()
	argv := append([]string(nil), st.Spec.ExecStart...)
	if v, ok := settings["CPUAffinity"]; ok {
		taskset, err := exec.LookPath("taskset")
		if err != nil {
			return nil, fmt.Errorf("unit %s: CPUAffinity=%s: %w", name, v, err)
		}
		cpus, err := cpulist.Parse(v)
		if err != nil {
			return nil, fmt.Errorf("unit %s: CPUAffinity=%s: %w", name, v, err)
		}
		argv = append([]string{taskset, "-c", cpulist.Format(cpus)}, argv...) // taskset stops parsing options at the command
	}
	if v, ok := settings["LimitNOFILE"]; ok {
		prlimit, err := exec.LookPath("prlimit")
		if err != nil {
			return nil, fmt.Errorf("unit %s: LimitNOFILE=%s: %w", name, v, err)
		}
		lim := strings.ReplaceAll(v, "infinity", "unlimited")
		if !strings.Contains(lim, ":") {
			lim = lim + ":" + lim
		}
		argv = append([]string{prlimit, "--nofile=" + lim, "--"}, argv...)
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = st.Spec.WorkingDir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // own session and process group; outlives the lab

	env := map[string]string{"PATH": "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin"}
	for _, k := range []string{"PATH", "LANG", "TZ", "HOME", "USER", "LOGNAME", "XDG_RUNTIME_DIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	if st.Spec.User != "" {
		u, err := user.Lookup(st.Spec.User)
		if err != nil {
			return nil, fmt.Errorf("unit %s: User=%s: %w", name, st.Spec.User, err)
		}
		if u.Uid != strconv.Itoa(os.Getuid()) {
			if os.Geteuid() != 0 {
				return nil, fmt.Errorf("unit %s: User=%s needs root (the lab runs as uid %d)", name, st.Spec.User, os.Getuid())
			}
			cred, err := credential(u)
			if err != nil {
				return nil, fmt.Errorf("unit %s: User=%s: %w", name, st.Spec.User, err)
			}
			cmd.SysProcAttr.Credential = cred
		}
		env["HOME"], env["USER"], env["LOGNAME"] = u.HomeDir, u.Username, u.Username
		delete(env, "XDG_RUNTIME_DIR")
	}
	for k, v := range st.Spec.Environment {
		env[k] = v
	}
	for _, a := range extraEnv { // a list of checked assignments: nothing is parsed
		k, v, _ := strings.Cut(a, "=")
		env[k] = v
	}
	cmd.Env = make([]string, 0, len(env))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	sort.Strings(cmd.Env)
	return cmd, nil
}

func credential(u *user.User) (*syscall.Credential, error) {
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	cred := &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	if ids, err := u.GroupIds(); err == nil {
		for _, g := range ids {
			if n, err := strconv.ParseUint(g, 10, 32); err == nil {
				cred.Groups = append(cred.Groups, uint32(n))
			}
		}
	}
	return cred, nil
}
