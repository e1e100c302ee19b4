package lab

import "fmt"

// duet checks what a duet needs: two variants that differ only in what
// each target has of its own (its config, environment, unit, binary), since
// both run at once on one PostgreSQL; the local stack, whose twin serves
// the second half; a load that a split can share.
func (v *validator) duet(e *Experiment) {
	if e.Trials.Order != OrderDuet {
		return
	}
	const why = "trials.order = \"duet\" serves both variants at once"
	if len(e.Variants) != 2 {
		v.add(fmt.Sprintf("%d variants: %s, so it needs exactly 2 (use \"interleaved\" for more)", len(e.Variants), why), "trials", "order")
	}
	for i, vr := range e.Variants {
		if len(vr.PostgreSQL) > 0 {
			v.add(fmt.Sprintf("variant %q sets PostgreSQL settings: %s on one PostgreSQL, which cannot hold two settings (use \"interleaved\")", vr.Name, why),
				fmt.Sprintf("variant[%d]", i), "postgresql")
		}
	}
	if e.Partition.PostgreSQL != "" {
		v.add("pins PostgreSQL, which both halves of a duet share: not with trials.order = \"duet\" (pin the targets with [partition] postgrest)", "partition", "postgresql")
	}
	if e.Target.Unit != "" || e.Target.URL != "" {
		v.add(why+" on the local stack's target and its twin: an existing server (target.unit, target.url) has no twin (use \"interleaved\")", "trials", "order")
	}
	if e.Load.Model.SearchesEachTrial() {
		v.add(fmt.Sprintf("model %q: a capacity search per variant is not split between two targets (use open, closed or efficiency with trials.order = \"duet\")", ModelSearch), "load", "model")
	}
	if e.Load.Model.Closed() && e.Load.Connections%2 != 0 {
		v.add(fmt.Sprintf("%d: trials.order = \"duet\" gives each target half of the connections, so they must be even", e.Load.Connections), "load", "connections")
	}
	if e.Profile {
		v.add("profile = true records one target's CPU profile: not with trials.order = \"duet\"", "profile")
	}
}
