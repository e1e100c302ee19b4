package loadgen

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

func TestThreadsAndCPUPinningAreAppliedAndRestored(t *testing.T) {
	var before unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		t.Fatal(err)
	}
	if before.Count() < 2 {
		labtest.Need(t, "2 CPUs to see pinning (this process may use %d)", before.Count())
	}
	procs := runtime.GOMAXPROCS(0)
	s := startServer(t, okHandler)
	var during unix.CPUSet
	var duringProcs int
	runP(t, Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 100}, Duration: 1100 * time.Millisecond,
		Threads: 1, CPUs: []int{0}}, func(Progress) {
		unix.SchedGetaffinity(0, &during)
		duringProcs = runtime.GOMAXPROCS(0)
	})
	if during.Count() != 1 || !during.IsSet(0) || duringProcs != 1 {
		t.Errorf("during the run: %d CPUs (cpu0 %v), GOMAXPROCS %d; want only CPU 0 and 1", during.Count(), during.IsSet(0), duringProcs)
	}
	var after unix.CPUSet
	unix.SchedGetaffinity(0, &after)
	if after != before || runtime.GOMAXPROCS(0) != procs {
		t.Errorf("not restored: %d CPUs, GOMAXPROCS %d (was %d, %d)", after.Count(), runtime.GOMAXPROCS(0), before.Count(), procs)
	}
}
