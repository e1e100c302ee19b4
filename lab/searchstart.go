package lab

// searchRestart is the share of the last search's rate where a repeat's
// capacity search starts.
const searchRestart = 0.8

// lastFound is the last trial of (variant, scenario) whose capacity search
// found a rate, if any.
func (s *session) lastFound(variant, scenario string) (Trial, bool) {
	if !s.exp.Load.Model.SearchesEachTrial() {
		return Trial{}, false
	}
	for i := len(s.run.Trials) - 1; i >= 0; i-- {
		t := s.run.Trials[i]
		if t.Variant == variant && t.Scenario == scenario && t.Error == "" && t.Load.Rate > 0 {
			return t, true
		}
	}
	return Trial{}, false
}

// searchFrom starts a repeat's capacity search from what the last one
// found. A plain search starts at searchRestart of the last rate found,
// never below the limit's min_rate: it then passes its first step,
// doubles once past the limit and bisects, about half the steps of a
// search from min_rate, at the same precision. A sustained search holds
// around the last limit held (LoadSpec.Estimate), without its closed-loop
// sweep.
func (s *session) searchFrom(spec *LoadSpec, variant, scenario string) {
	t, ok := s.lastFound(variant, scenario)
	switch {
	case !ok:
	case spec.Load.Limit.Sustained():
		spec.Estimate = t.Load.AskedRate
	default:
		spec.Load.Limit.MinRate = max(searchRestart*t.Load.Rate, s.exp.Load.Limit.MinRate)
	}
}
