package format

import (
	"io"
	"math"
	"strings"
	"time"
)

// Elapsed is a duration rounded to the second ("1m30s"); "–" when none.
func Elapsed(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	return d.Round(time.Second).String()
}

// WriteTrimmed writes s with the trailing spaces of each line cut.
func WriteTrimmed(w io.Writer, s string) {
	for _, line := range strings.SplitAfter(s, "\n") {
		io.WriteString(w, strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			io.WriteString(w, "\n")
		}
	}
}

// Finite is f, or nil for NaN and the infinities (which JSON cannot hold).
func Finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}
