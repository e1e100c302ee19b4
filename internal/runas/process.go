package runas

import (
	"context"
	"fmt"

	"github.com/shirou/gopsutil/v3/process"
)

// ProcessUID is the real user id of process pid.
func ProcessUID(ctx context.Context, pid int) (int, error) {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return 0, fmt.Errorf("process %d: %w", pid, err)
	}
	ids, err := p.UidsWithContext(ctx)
	if err != nil || len(ids) == 0 {
		return 0, fmt.Errorf("process %d: user: %v", pid, err)
	}
	return int(ids[0]), nil
}

// NotRoot fails when process pid (what), runs as root: PostgREST never
// does, whoever started it.
func NotRoot(ctx context.Context, what string, pid int) error {
	if pid <= 0 {
		return nil
	}
	uid, err := ProcessUID(ctx, pid)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if uid == 0 {
		return fmt.Errorf("%s (pid %d) runs as root: the lab measures PostgREST only as an unprivileged user (give its unit User=postgrest, or let the lab's stack run it)", what, pid)
	}
	return nil
}
