package lab

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoValidTrial is the error of a run that is no result: a variant
// whose every trial on a scenario failed (see Run.NoResult).
var ErrNoValidTrial = errors.New("no valid trial")

// NoResult says, in one line wrapping ErrNoValidTrial, why the run is no
// result: every trial of some variant on some scenario failed (crashed,
// not ready, ...), so there is nothing to compare it with; nil when every
// variant and scenario measured has a valid trial. A run that measured
// nothing and was not interrupted is no result either. The run is still
// written whole: its failed trials say what happened. A memory sweep
// (MemorySweep) is the exception: limits too small to run are what it
// looks for, so a variant without a valid trial is no failure of the run
// while another variant measured the scenario (the floor is found).
func (r *Run) NoResult() error {
	type key struct{ variant, scenario string }
	var order []key
	failed, valid := map[key][]Trial{}, map[key]bool{}
	for _, t := range r.Trials {
		k := key{t.Variant, t.Scenario}
		if _, seen := failed[k]; !seen && !valid[k] {
			order = append(order, k)
		}
		if t.Error == "" {
			valid[k] = true
		} else {
			failed[k] = append(failed[k], t)
		}
	}
	measured := map[string]bool{} // scenarios some variant measured
	for k := range valid {
		measured[k.scenario] = true
	}
	var parts []string
	for _, k := range order {
		if valid[k] || r.Experiment.MemorySweep() && measured[k.scenario] {
			continue
		}
		fs := failed[k]
		first, _, _ := strings.Cut(fs[0].Error, "\n")
		parts = append(parts, fmt.Sprintf("variant %s on %s: all %d trial(s) failed (trial %d: %s)",
			k.variant, k.scenario, len(fs), fs[0].Seq, strings.TrimSpace(first)))
	}
	switch {
	case len(parts) > 0:
		return fmt.Errorf("%w: %s", ErrNoValidTrial, strings.Join(parts, "; "))
	case len(r.Trials) == 0 && r.Interrupted == "":
		return fmt.Errorf("%w: the run measured no trial", ErrNoValidTrial)
	}
	return nil
}

// MemorySweep says the experiment sweeps the target's memory limit
// (dropin.MemoryMax): it looks for the floor, below which trials are
// expected to fail (OOM kills, not ready).
func (e *Experiment) MemorySweep() bool {
	if e.Sweep == nil {
		return false
	}
	for _, a := range e.Sweep.Axes() {
		if a.Key == "dropin.MemoryMax" {
			return true
		}
	}
	return false
}
