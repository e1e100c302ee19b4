// Package median holds the one median of the module: the lab's statistics
// (lab/stats) and the telemetry's speed reference (host/telemetry),
// which must not depend on each other, both take it from here.
package median

import "slices"

// Of is the median of xs: the middle value, or the mean of the two middle
// ones for an even count; 0 for none. xs is left as it was.
func Of(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[n/2]
}
