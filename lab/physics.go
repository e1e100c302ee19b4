package lab

import (
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// physicsSlack is how far a search's rate x CPU per request may exceed
// the server's cores before the trial is refused: the telemetry's own
// error (10 Hz samples, cgroup counters) and CPU time PostgreSQL spends on
// others' behalf stay inside it.
const physicsSlack = 1.10

// implausible says why a capacity search's figure cannot be right ("" when
// it can): the rate it found times the CPU each request cost the server
// (PostgREST and PostgreSQL) exceeds the cores the server had. A rate
// counted over too short a time, or answers credited to the wrong window,
// would read as more work than the machine can do.
func implausible(t Trial, cores int) string {
	rate := t.Load.Rate
	if t.Load.AskedRate > 0 && t.Load.AskedRate < rate {
		rate = t.Load.AskedRate
	}
	us := t.Server.CPUPerRequestUs + t.Database.CPUPerRequestUs
	if cores <= 0 || rate <= 0 || us <= 0 {
		return ""
	}
	busy := rate * us / 1e6
	if busy <= physicsSlack*float64(cores) {
		return ""
	}
	return fmt.Sprintf("implausible: %s req/s x %s µs of server and database CPU per request is %s cores busy, but the server had %d: a measurement error, not a limit",
		format.Num(rate, 3), format.Num(us, 3), format.Num(busy, 3), cores)
}
