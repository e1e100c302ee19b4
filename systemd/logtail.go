package systemd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// TailFile returns the last n lines of the file at path, reading at most
// the last 64 KiB. It reads only a regular file of the lab's user, never
// through a link (package safefile): the tail goes into error messages.
func TailFile(path string, n int) (string, error) {
	f, err := safefile.Open(path, safefile.Own())
	if err != nil {
		return "", fmt.Errorf("log tail: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("log tail: %w", err)
	}
	const max = 64 << 10
	off := st.Size() - max
	if off < 0 {
		off = 0
	}
	buf, err := io.ReadAll(io.NewSectionReader(f, off, st.Size()-off))
	if err != nil {
		return "", fmt.Errorf("log tail %s: %w", path, err)
	}
	return lastLines(string(buf), n), nil
}

func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if s == "" || n <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// journalTail runs journalctl [--user] -u unit -n n.
func journalTail(ctx context.Context, user bool, unit string, n int) (string, error) {
	args := []string{"--no-pager", "-q", "-o", "cat", "-n", fmt.Sprint(n), "-u", unit}
	if user {
		args = append([]string{"--user"}, args...)
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "journalctl", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("journalctl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// shortContext gives error reporting its own few seconds, independent of a
// caller's context that may already be done.
func shortContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 3*time.Second)
}
