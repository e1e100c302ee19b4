package runas

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// ProbeTimeout bounds one probe of a binary (Output).
const ProbeTimeout = 3 * time.Second

// probeLimit bounds what a probe's output is kept of.
const probeLimit = 1 << 20

// Credential is what a process run as a needs: nil when a is the lab's
// own user, else a's uid, primary group and supplementary groups.
func (a Account) Credential() *syscall.Credential {
	if a.Self() {
		return nil
	}
	c := &syscall.Credential{Uid: uint32(a.UID), Gid: uint32(a.GID)}
	for _, g := range a.groups() {
		c.Groups = append(c.Groups, uint32(g))
	}
	return c
}

// Output runs exe with args as a, confined (StartConfined), with only env
// for its environment (PATH, HOME=/ and LANG=C.UTF-8 added when missing),
// in its own process group, for at most ProbeTimeout; it returns the first
// line-oriented MiB of its standard output, and its standard error in the
// error. It is how the lab asks a binary it did not write a question
// (--version, --dump-config): never as root, and only after Pin.
func (a Account) Output(ctx context.Context, exe Executable, env []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe.Path, args...)
	cmd.Dir = "/"
	cmd.Env = probeEnv(env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: a.Credential(), Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var stdout, stderr limitedBuffer
	stdout.limit, stderr.limit = probeLimit, 4096
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	what := exe.Named + " " + strings.Join(args, " ")
	if err := StartConfined(cmd); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	err := cmd.Wait()
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within %v", ProbeTimeout)
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return nil, fmt.Errorf("%s (as %s): %w", what, a.Name, err)
	}
	return stdout.Bytes(), nil
}

func probeEnv(env []string) []string {
	out := append([]string(nil), env...)
	for _, kv := range []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/", "LANG=C.UTF-8"} {
		k, _, _ := strings.Cut(kv, "=")
		if !hasVar(out, k) {
			out = append(out, kv)
		}
	}
	return out
}

func hasVar(env []string, k string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, k+"=") {
			return true
		}
	}
	return false
}

// limitedBuffer keeps the first limit bytes written to it and drops the
// rest (a probe's output is bounded, whatever the binary prints).
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
