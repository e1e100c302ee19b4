package main

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/host/profiler"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// checkProfiling refuses a profiling run (profile = true, --profile)
// that cannot profile, before any variant is applied: perf must be on
// PATH, and the server side local.
func checkProfiling(ctx context.Context, e *lab.Experiment, agents bool) error {
	if !e.Profile {
		return nil
	}
	if agents {
		return usageErrorf("run: profile = true (or --profile) needs the local server side; the agent does not profile yet")
	}
	if err := profiler.Check(ctx); err != nil {
		return fmt.Errorf("%s: %w", e.Name, err)
	}
	return nil
}
