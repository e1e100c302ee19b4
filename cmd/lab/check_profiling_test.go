package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// A profiling run that cannot profile stops before anything is applied,
// saying why: an agent on the server side, or no perf on PATH.
func TestCheckProfile(t *testing.T) {
	ctx := context.Background()
	e := &lab.Experiment{Name: "x"}
	if err := checkProfiling(ctx, e, true); err != nil {
		t.Errorf("not profiling: %v", err)
	}
	e.Profile = true
	err := checkProfiling(ctx, e, true)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "local server side") {
		t.Errorf("with an agent: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if err := checkProfiling(ctx, e, false); err == nil || !strings.Contains(err.Error(), "perf on PATH") {
		t.Errorf("without perf: %v", err)
	}
}
