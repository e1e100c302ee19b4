package stats

import "github.com/pgrst-lab/pgrst-lab/internal/median"

// Median is the median of values (0 for none), for tables that show a
// centre without an interval: the centre Summarize reports (benchmath's),
// computed without the interval.
func Median(values []float64) float64 { return median.Of(values) }
