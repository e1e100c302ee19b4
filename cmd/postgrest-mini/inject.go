package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// injectEnv names the lab-only variable that adds CPU work per request.
// Its PGRST_ prefix lets it through the lab's rules for variant
// environments (PostgREST variables only); no PostgREST has a
// lab-inject-cpu-us setting, and the config loader ignores it.
const injectEnv = "PGRST_LAB_INJECT_CPU_US"

// maxInjectUs bounds the injected work (a second per request is a typo).
const maxInjectUs = 1_000_000

// injectCPU reads PGRST_LAB_INJECT_CPU_US: whole microseconds, 0..1000000.
func injectCPU(lookup func(string) (string, bool)) (time.Duration, error) {
	v, ok := lookup(injectEnv)
	if !ok || strings.TrimSpace(v) == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > maxInjectUs {
		return 0, fmt.Errorf("%s=%q: want whole microseconds of CPU work per request, 0..%d", injectEnv, v, maxInjectUs)
	}
	return time.Duration(n) * time.Microsecond, nil
}
