package reconcile

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/pgburn"
)

// Burner is the database injection of `lab calibrate --inject database`:
// pre-request functions in the stack's own database (made at the start,
// dropped at the end), sized by one loop iteration's measured cost. Each
// step opens its own connection: the run may restart PostgreSQL between
// them.
type Burner struct {
	uri       string
	usPerIter float64
}

// burnProbe is the loop count timed to measure an iteration's cost.
const burnProbe = 2_000_000

// NewBurner makes the functions and measures one iteration's cost as the
// CPU time the backend spent on a probe (from /proc/PID/schedstat: the
// stack's PostgreSQL runs on this machine), so that other work on the
// machine does not inflate it; the best of three.
func NewBurner(ctx context.Context, uri string) (*Burner, error) {
	b := &Burner{uri: uri}
	err := b.with(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, pgburn.SetupSQL); err != nil {
			return fmt.Errorf("create the pre-request functions: %w", err)
		}
		var pid int
		if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
			return fmt.Errorf("backend pid: %w", err)
		}
		best := time.Duration(0)
		for range 3 {
			before, err := onCPU(pid)
			if err != nil {
				return err
			}
			if _, err := conn.Exec(ctx, "SELECT "+pgburn.Schema+".burn($1)", burnProbe); err != nil {
				return fmt.Errorf("time the loop: %w", err)
			}
			after, err := onCPU(pid)
			if err != nil {
				return err
			}
			if d := after - before; best == 0 || d < best {
				best = d
			}
		}
		b.usPerIter = float64(best.Nanoseconds()) / 1e3 / burnProbe
		return nil
	})
	if err == nil && !(b.usPerIter > 0) {
		err = fmt.Errorf("the loop of %d iterations took no measurable CPU time", burnProbe)
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// onCPU is the time process pid has run on a CPU (schedstat's first field).
func onCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
	if err != nil {
		return 0, fmt.Errorf("the backend's CPU time (is PostgreSQL on this machine?): %w", err)
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return 0, fmt.Errorf("/proc/%d/schedstat: empty", pid)
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/schedstat: %w", pid, err)
	}
	return time.Duration(ns), nil
}

// Set makes A-prime's pre-request spin about us microseconds.
func (b *Burner) Set(ctx context.Context, us int) error {
	return b.with(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, pgburn.BSQL(pgburn.Iterations(us, b.usPerIter))); err != nil {
			return fmt.Errorf("size the pre-request function to %d µs: %w", us, err)
		}
		return nil
	})
}

// Close drops the schema, also after Ctrl-C (with a context of its own).
func (b *Burner) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = b.with(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, pgburn.TeardownSQL)
		return err
	})
}

func (b *Burner) with(ctx context.Context, f func(*pgx.Conn) error) error {
	conn, err := pgx.Connect(ctx, b.uri)
	if err != nil {
		return fmt.Errorf("connect to the stack's database: %w", err)
	}
	defer conn.Close(ctx)
	return f(conn)
}

// UsPerIteration is the measured CPU cost of one loop iteration, in µs.
func (b *Burner) UsPerIteration() float64 { return b.usPerIter }
