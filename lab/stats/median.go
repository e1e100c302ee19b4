package stats

// Median is the median of values as benchmath computes it (0 for none),
// for tables that show a centre without an interval.
func Median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s, _ := Summarize(values)
	return s.Median
}
