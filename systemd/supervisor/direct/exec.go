package direct

import (
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
)

// applied are the [Service] settings the direct supervisor applies, and
// how; every other one needs systemd's cgroups. It has no cgroups: both
// exec the service in place (command), keeping its PID.
var applied = map[string]string{
	"CPUAffinity": "via taskset(1)",
	"LimitNOFILE": "via prlimit(1)",
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
