package telemetry

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestBackendsCPUCountsGrowthAndNewcomers(t *testing.T) {
	from := Backends{CPU: map[int]time.Duration{1: 100, 2: 50, 3: 70}}
	to := Backends{CPU: map[int]time.Duration{1: 160, 2: 50, 4: 30}} // 3 left, 4 came
	if got := BackendsCPU(from, to); got != 60+0+30 {
		t.Errorf("BackendsCPU = %d; want 90", got)
	}
}

func TestRuntimeReadsSchedstat(t *testing.T) {
	// A backend is one thread; so is this goroutine, locked to its thread
	// (/proc/<tid>/schedstat is that thread's).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	buf := make([]byte, 256)
	d0, err := DefaultFS.runtime(tid, buf)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for d := d0; d == d0 && time.Now().Before(deadline); d, _ = DefaultFS.runtime(tid, buf) {
		for i := 0; i < 1e6; i++ { // the main thread's own time must grow
			_ = i * i
		}
	}
	if d1, _ := DefaultFS.runtime(tid, buf); d1 <= d0 {
		t.Errorf("schedstat runtime did not grow: %v then %v", d0, d1)
	}
}
