package gitbuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// BaseEnv are the variables of the lab's own environment a build sees
// (besides HOME, USER and LOGNAME, which are the build user's): what a
// compiler needs to be found and to read text, nothing that could hold a
// secret. Anything else a build needs is named (Options.Env, lab's
// --build-env).
var BaseEnv = []string{"PATH", "LANG", "LC_ALL", "TZ"}

// run runs command (`sh -c`) in the tree as user, confined, with the
// allow-listed environment, in a process group of its own that is killed
// when the build ends (what it left running too) or times out; its output
// goes to the log.
func (b commitDir) run(ctx context.Context, command string, user runas.Account, home string, extra []string, timeout time.Duration) error {
	logf, err := b.openLog()
	if err != nil {
		return fmt.Errorf("build log: %w", err)
	}
	defer logf.Close()
	bctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(bctx, "/bin/sh", "-c", command)
	cmd.Dir, cmd.Stdout, cmd.Stderr = b.src(), logf, logf
	cmd.Env = Env(user, home, extra)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: user.Credential(), Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	if err := runas.StartConfined(cmd); err != nil {
		return err
	}
	err = cmd.Wait()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what the build left behind in its group
	if err != nil && bctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("timed out after %s: %w", timeout, err)
	}
	return err
}

// Env is a build's whole environment: HOME, USER and LOGNAME of user,
// BaseEnv's variables from the lab's environment (PATH a plain one when
// unset), then extra (NAME=VALUE; a later one wins).
func Env(user runas.Account, home string, extra []string) []string {
	env := []string{"HOME=" + home, "USER=" + user.Name, "LOGNAME=" + user.Name}
	for _, k := range BaseEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		} else if k == "PATH" {
			env = append(env, "PATH=/usr/local/bin:/usr/bin:/bin")
		}
	}
	for _, kv := range extra {
		if strings.Contains(kv, "=") {
			env = append(env, kv)
		}
	}
	return env
}

// ParseEnv reads a --build-env list: comma-separated NAME (its value taken
// from the lab's environment, skipped when unset) or NAME=VALUE entries.
// The store's URI ($LAB_STORE) is refused: a build runs a commit's code,
// and the store's password is never its business.
func ParseEnv(list string) ([]string, error) {
	var out []string
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, assigned := strings.Cut(item, "=")
		if !envName.MatchString(name) {
			return nil, fmt.Errorf("--build-env %q: %q is not a variable name", list, name)
		}
		if name == "LAB_STORE" {
			return nil, fmt.Errorf("--build-env %s: a build never sees the store's URI (it holds the store's password)", name)
		}
		if !assigned {
			var ok bool
			if value, ok = os.LookupEnv(name); !ok {
				continue
			}
		}
		out = append(out, name+"="+value)
	}
	return out, nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
