package telemetry

import (
	"strconv"
	"strings"
)

// OOMKill is the kernel's "oom-kill:" record, e.g.
//
//	oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,
//	oom_memcg=/app.slice/x.service,task_memcg=/app.slice/x.service,task=python3,pid=4242,uid=0
type OOMKill struct {
	Constraint string // CONSTRAINT_MEMCG (a cgroup limit), CONSTRAINT_NONE (the machine), ...
	OOMMemcg   string // the cgroup whose limit was hit
	TaskMemcg  string // the killed task's cgroup
	Task       string
	PID        int
	UID        int
}

// ParseOOMKill parses an "oom-kill:" kernel message; ok is false for any
// other message.
func ParseOOMKill(msg string) (OOMKill, bool) {
	rest, ok := strings.CutPrefix(msg, "oom-kill:")
	if !ok {
		return OOMKill{}, false
	}
	var k OOMKill
	// Values have no commas except cpuset/mems lists like "0-1,3"; keys we
	// use come after them, so split on ",key=" boundaries.
	for _, kv := range splitKV(rest) {
		key, val, _ := strings.Cut(kv, "=")
		switch key {
		case "constraint":
			k.Constraint = val
		case "oom_memcg":
			k.OOMMemcg = val
		case "task_memcg":
			k.TaskMemcg = val
		case "task":
			k.Task = val
		case "pid":
			k.PID, _ = strconv.Atoi(val)
		case "uid":
			k.UID, _ = strconv.Atoi(val)
		}
	}
	return k, k.PID != 0
}

// splitKV splits "a=1,b=2-3,4,c=x" into "a=1", "b=2-3,4", "c=x": a comma
// starts a new pair only when an '=' follows before the next comma.
func splitKV(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ',' {
			continue
		}
		next := s[i+1:]
		eq, comma := strings.IndexByte(next, '='), strings.IndexByte(next, ',')
		if eq >= 0 && (comma < 0 || eq < comma) {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// InCgroup reports whether the killed task was in cg or below it.
func (k OOMKill) InCgroup(cg string) bool {
	return cg != "" && (k.TaskMemcg == cg || strings.HasPrefix(k.TaskMemcg, strings.TrimSuffix(cg, "/")+"/"))
}
