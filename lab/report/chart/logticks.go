package chart

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// LogTicks marks a log axis as gonum's plot.LogTicks does, its labels
// written plainly: 1, 10, 100, 1000, then 10k, 100k, 1M (not 1e+06).
type LogTicks struct{}

// Ticks are gonum's log ticks, relabelled.
func (LogTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = plainNumber(ts[i].Value)
		}
	}
	return ts
}

// plainNumber is v without an exponent: "0.1", "1000", "10k", "1M".
func plainNumber(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
