package calibrate

import (
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Injection says where A' gets its extra CPU work per request.
type Injection string

const (
	// InjectServer spins in the reference server's request handler
	// (PGRST_LAB_INJECT_CPU_US): CPU in the PostgREST process, on
	// postgrest-mini only.
	InjectServer Injection = "server"
	// InjectDatabase calls a db-pre-request function that spins in
	// PostgreSQL: CPU in the database backend, on any PostgREST. Both A
	// and A' call one (A's spins zero times), so the only difference is
	// the loop.
	InjectDatabase Injection = "database"
)

// ParseInjection reads --inject: "server", "database", or "" (the
// default for the target: server on the reference server, else database).
func ParseInjection(s string, reference bool) (Injection, error) {
	switch Injection(s) {
	case "":
		if reference {
			return InjectServer, nil
		}
		return InjectDatabase, nil
	case InjectServer:
		if !reference {
			return "", fmt.Errorf("--inject server needs postgrest-mini (PGRST_LAB_INJECT_CPU_US); use --inject database on real PostgREST")
		}
		return InjectServer, nil
	case InjectDatabase:
		return InjectDatabase, nil
	}
	return "", fmt.Errorf("--inject %q: allowed values are server (postgrest-mini only) and database (any PostgREST)", s)
}

// CheckHeadline is nil when e's headline is one the injection is sized
// for: throughput (closed model, search) or server + database CPU per
// request (efficiency). Otherwise it says which the experiment has and
// what to run instead: an effect on p99 or on memory is not a fixed share
// of injected CPU work.
func CheckHeadline(e *lab.Experiment) error {
	m := lab.PrimaryMetric(e)
	want := "rate"
	if e.Load.Model.Efficiency() {
		want = "cpu"
	}
	if m.Name == want {
		return nil
	}
	return fmt.Errorf("calibrate: %s's headline is %s (%s); calibration sizes its injected work for throughput (the closed model, a search) or CPU per request (efficiency): calibrate the design in one of those models, without [trials] headline", e.Name, m.Name, m.Label)
}
