package profiler

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// spinForProfile burns cpu of this process's CPU time (bounded by 30 s
// of wall time): on a loaded machine, wall time says little about how
// many samples perf takes.
//
//go:noinline
func spinForProfile(cpu time.Duration) int {
	start, deadline := processCPU(), time.Now().Add(30*time.Second)
	n := 0
	for processCPU()-start < cpu && time.Now().Before(deadline) {
		for i := 0; i < 100000; i++ {
			n += i * i
		}
	}
	return n
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perf record on this very process: samples only while enabled, with the
// spinning function's name in the stacks, and a root frame per service.
func TestRecorderOnOwnProcess(t *testing.T) {
	if _, err := exec.LookPath("perf"); err != nil {
		labtest.Need(t, "perf is not installed: %v", err)
	}
	ctx := context.Background()
	if err := Check(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := Start(ctx, t.TempDir(), []Process{{PID: os.Getpid(), Service: "self"}})
	if err != nil {
		t.Fatal(err)
	}
	spinForProfile(600 * time.Millisecond)
	if err := rec.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	spinForProfile(300 * time.Millisecond) // after the window: not sampled
	p, err := rec.Fold(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 600 ms of CPU at 499 Hz is 300 samples; the 300 ms after the window
	// would make 450.
	if p.Samples < 100 || p.Samples > 420 || p.PeriodNs <= 0 || p.PerfCPUSeconds < 0 || p.PerfCPUSeconds > 0.3 {
		t.Fatalf("%d samples (period %d ns)", p.Samples, p.PeriodNs)
	}
	// go test may strip the symbol table: the frames are then named
	// after the service's executable. Either way most samples are in its own code.
	exe, _ := os.Executable()
	own := int64(0)
	for _, s := range p.Stacks {
		if s.Frames[0] != "self" {
			t.Errorf("root frame %q, want self", s.Frames[0])
		}
		leafish := strings.Join(s.Frames[1:], ";")
		if strings.Contains(leafish, "spinForProfile") || strings.Contains(leafish, "[self executable]") {
			own += s.Count
		}
	}
	if own*2 < p.Samples {
		t.Errorf("%d of %d samples in %s: %+v", own, p.Samples, exe, p.Stacks[:min(5, len(p.Stacks))])
	}
}

func TestStartFailsClearly(t *testing.T) {
	if _, err := exec.LookPath("perf"); err != nil {
		labtest.Need(t, "perf is not installed: %v", err)
	}
	if _, err := Start(context.Background(), t.TempDir(), nil); err == nil {
		t.Error("no processes: no error")
	}
	_, err := Start(context.Background(), t.TempDir(), []Process{{PID: 1 << 30, Service: "gone"}})
	if err == nil || !strings.Contains(err.Error(), "perf record") {
		t.Errorf("a PID that does not exist: %v", err)
	}
}

func TestCheckWithoutPerf(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "perf on PATH") {
		t.Errorf("Check without perf: %v", err)
	}
}

func TestProcCPU(t *testing.T) {
	before := procCPU(os.Getpid())
	spinForProfile(50 * time.Millisecond)
	if after := procCPU(os.Getpid()); after-before < 30*time.Millisecond {
		t.Errorf("procCPU: %v then %v after 50 ms of spinning", before, after)
	}
	if procCPU(1<<30) != 0 {
		t.Error("a process that does not exist has CPU time")
	}
}
