package history

import (
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// A tracked run against a reference (lab track --reference) serves the
// commit's build (lab.TrackedVariant) beside a fixed reference build, at
// once: its series that the machine's drift does not move are the
// per-round ratios build ÷ reference, one point per run. Their variant is
// named RelativeVariant.

// RelativeVariant names the series of per-round ratios tracked build ÷
// reference.
const RelativeVariant = lab.TrackedVariant + "÷" + lab.ReferenceVariant

// HasVariant reports whether run recorded a variant named name.
func HasVariant(run *lab.Run, name string) bool {
	return slices.Contains(stats.VariantNames(run), name)
}

// AgainstReference reports whether run measured a tracked build beside a
// reference.
func AgainstReference(run *lab.Run) bool {
	return HasVariant(run, lab.TrackedVariant) && HasVariant(run, lab.ReferenceVariant)
}

// relativePoint is a run's median ratio build ÷ reference of one cell,
// with its interval and MDE (paired).
func relativePoint(e Entry, sc string, m lab.Metric, alpha float64) (Point, bool) {
	return pointFrom(e, stats.PairedRatios(e.Run.Run, lab.ReferenceVariant, lab.TrackedVariant, sc, m), alpha, true)
}

// beside reports whether every run of a group measured a tracked build
// beside a reference: then only RelativeVariant's series gets change
// points.
func beside(runs []Entry) bool {
	for _, e := range runs {
		if !AgainstReference(e.Run.Run) {
			return false
		}
	}
	return len(runs) > 0
}
