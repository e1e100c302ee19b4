package lab

import (
	"errors"
	"sync"
)

// Duet is the two halves of a duet run (Trials.Order = OrderDuet): two
// targets on one PostgreSQL, each with its own server side and load
// generator, that serve the two variants at the same time. Whatever slows
// the machine during a trial (a neighbour, a frequency step, the host's
// steal) then falls on both variants at once, and each round's ratio keeps
// less of it than two trials one after the other (Bulej et al., "Duet
// Benchmarking", ICPE 2020).
//
// Half a is the stack's target, half b its twin; the variants swap halves
// every round, so that neither port, unit nor warm cache favours one. The
// server sides tell their PostgreSQL backends apart by application_name.
type Duet struct {
	Halves  [2]Server
	Loaders [2]Loader
}

// Halves names a duet's halves in the record (Trial.Half).
var Halves = [2]string{"a", "b"}

// duetVariants is round r's assignment: the baseline on half a in odd
// rounds, on half b in even ones.
func duetVariants(e *Experiment, round int) [2]Variant {
	base := e.BaselineVariant()
	var other Variant
	for _, v := range e.Variants {
		if v.Name != base.Name {
			other = v
		}
	}
	if round%2 == 1 {
		return [2]Variant{base, other}
	}
	return [2]Variant{other, base}
}

// duetLoad is one half's share of the load: half the rate of an open
// model, half the connections of a closed one.
func duetLoad(l Load) Load {
	switch {
	case l.Model.FixedRate():
		l.Rate /= 2
	case l.Model.Closed():
		l.Connections = max(1, l.Connections/2)
	}
	return l
}

// both runs f for both halves at once and waits for them. A panic in
// either becomes its *InternalError (the runner's recovery sees only its
// own goroutine).
func both(f func(i int) error) [2]error {
	var errs [2]error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					errs[i] = NewInternalError("duet half "+Halves[i], p)
				}
			}()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	return errs
}

// duetReady checks that a duet run has what it needs.
func (r *Runner) duetReady(e *Experiment) error {
	if e.Trials.Order != OrderDuet {
		return nil
	}
	if r.Duet == nil || r.Duet.Halves[0] == nil || r.Duet.Halves[1] == nil || r.Duet.Loaders[0] == nil || r.Duet.Loaders[1] == nil {
		return errors.New(`trials.order = "duet" needs two targets: the local stack's target and its twin (lab.Runner.Duet)`)
	}
	return nil
}

// LoadsPerRound is how many loads one round runs one after the other: a
// trial per variant and scenario, or per scenario in a duet, whose two
// variants share each load's time. A round's wall time is about this
// many trials' (the time estimates use it).
func (e *Experiment) LoadsPerRound() int {
	if e.Trials.Order == OrderDuet {
		return len(e.Scenarios)
	}
	return len(e.Variants) * len(e.Scenarios)
}
