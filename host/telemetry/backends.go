package telemetry

import (
	"context"
	"fmt"

	"strconv"
	"time"
)

// Backends is one reading of the CPU time of the PostgreSQL backends whose
// application_name is App: pid -> time on CPU so far. Two targets on one
// PostgreSQL (a duet's halves) are told apart this way, where the cluster's
// cgroup sums them.
//
// The time is the scheduler's (/proc/<pid>/schedstat, nanoseconds; a
// backend is one thread), not /proc/<pid>/stat's 10 ms ticks: an 8 s window
// of ten pooled backends would lose about a percent to rounding.
type Backends struct {
	App string
	CPU map[int]time.Duration
}

// ReadBackends lists the client backends with application_name app and
// reads each one's CPU time.
func (fs FS) ReadBackends(ctx context.Context, conn DBConn, app string) (Backends, error) {
	rows, err := conn.Query(ctx, "select pid from pg_stat_activity where application_name = $1 and backend_type = 'client backend'", app)
	if err != nil {
		return Backends{}, fmt.Errorf("backends of %s: %w", app, err)
	}
	defer rows.Close()
	b := Backends{App: app, CPU: map[int]time.Duration{}}
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			return Backends{}, fmt.Errorf("backends of %s: %w", app, err)
		}
		b.CPU[pid] = -1 // read below, once the query is done
	}
	if err := rows.Err(); err != nil {
		return Backends{}, fmt.Errorf("backends of %s: %w", app, err)
	}
	buf := make([]byte, 256)
	for pid := range b.CPU {
		d, err := fs.runtime(pid, buf)
		if err != nil {
			delete(b.CPU, pid) // gone since the query
			continue
		}
		b.CPU[pid] = d
	}
	return b, nil
}

// runtime is a single-threaded process's time on CPU (schedstat's first field).
func (fs FS) runtime(pid int, buf []byte) (time.Duration, error) {
	b, err := readFile(fs.proc(strconv.Itoa(pid), "schedstat"), buf)
	if err != nil {
		return 0, err
	}
	var f [1][]byte
	if fields(b, f[:]) < 1 {
		return 0, fmt.Errorf("%s: no runtime field", fs.proc(strconv.Itoa(pid), "schedstat"))
	}
	ns, ok := atou(f[0])
	if !ok {
		return 0, fmt.Errorf("%s: bad runtime %q", fs.proc(strconv.Itoa(pid), "schedstat"), f[0])
	}
	return time.Duration(ns), nil
}

// BackendsCPU is the CPU the backends used between two readings: a backend
// in both counts its growth, one that appeared counts all of its time (it
// connected during the window), one that left counts nothing (its last
// part is lost; PostgREST's pool keeps its connections while it is busy).
func BackendsCPU(from, to Backends) time.Duration {
	var sum time.Duration
	for pid, t := range to.CPU {
		if t0, ok := from.CPU[pid]; ok && t >= t0 {
			sum += t - t0
		} else if !ok {
			sum += t
		}
	}
	return sum
}
