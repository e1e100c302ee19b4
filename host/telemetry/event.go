package telemetry

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Event kinds.
const (
	KindOOMKill = "oom-kill" // the kernel's OOM killer killed a process of the source
	KindCrash   = "crash"    // the main process went away or changed without systemd restarting it
	KindRestart = "restart"  // systemd restarted the service (NRestarts grew)
)

// Event is an OOM kill, crash or unexpected restart of a source, with the
// caller's load context (variant, trial, request rate, ...) at the time.
type Event struct {
	T       time.Time
	Source  string // "" when no watched source matched (another cgroup's OOM kill)
	Kind    string // KindOOMKill, KindCrash, KindRestart
	Detail  string
	PID     int    // killed or vanished process, when known
	Cgroup  string // control group of the killed process, when known
	Context map[string]string
}

func (e Event) String() string {
	s := fmt.Sprintf("%s %s %s", e.T.Format("15:04:05.000"), e.Kind, e.Source)
	if e.PID != 0 {
		s += fmt.Sprintf(" pid=%d", e.PID)
	}
	if e.Cgroup != "" {
		s += " cgroup=" + e.Cgroup
	}
	s += ": " + e.Detail
	for _, k := range slices.Sorted(maps.Keys(e.Context)) {
		s += fmt.Sprintf(" %s=%s", k, e.Context[k])
	}
	return s
}

func sortedStrings(s []string) []string { slices.Sort(s); return s }
