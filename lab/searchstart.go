package lab

// searchRestart is the share of the last search's rate where a repeat's
// capacity search starts.
const searchRestart = 0.8

// searchStart is the rate a capacity search of (variant, scenario) starts
// at when an earlier trial of the run already found one: searchRestart of
// the last rate found, never below the limit's min_rate. A repeat then
// passes its first step, doubles once past the limit and bisects: about
// half the steps of a search from min_rate, at the same precision. 0 when
// there is none (the search starts at min_rate).
func (s *session) searchStart(variant, scenario string) float64 {
	if !s.exp.Load.Model.SearchesEachTrial() {
		return 0
	}
	for i := len(s.run.Trials) - 1; i >= 0; i-- {
		t := s.run.Trials[i]
		if t.Variant == variant && t.Scenario == scenario && t.Error == "" && t.Load.Rate > 0 {
			return max(searchRestart*t.Load.Rate, s.exp.Load.Limit.MinRate)
		}
	}
	return 0
}
