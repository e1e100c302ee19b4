package format

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Num formats a value with about digits significant digits (3 in the run
// reports, 4 in the history): no decimals from 10^(digits-1) up, one more
// per decade below, at most three; below 0.01 two significant digits.
// NaN is "?" and an infinity "∞".
func Num(v float64, digits int) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "?"
	case math.IsInf(v, 0):
		return "∞"
	case v == 0:
		return fmt.Sprintf("%.0f", v)
	case a < 0.01:
		return fmt.Sprintf("%.2g", v)
	}
	dec := 0
	for lim := math.Pow10(digits - 1); a < lim && dec < 3; lim /= 10 {
		dec++
	}
	return fmt.Sprintf("%.*f", dec, v)
}

// Duration formats a latency compactly (µs below 1 ms, ms with 2
// decimals below 10 s).
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000)
	}
	return d.Round(time.Millisecond).String()
}

// Count formats a rate of requests: no decimals from 100 up, one below.
func Count(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// Bytes formats bytes in SI units, as k6 does ("24 MB").
func Bytes(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB"}
	i := 0
	for b >= 1000 && i < len(units)-1 {
		b /= 1000
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	return fmt.Sprintf("%s %s", Num(b, 3), units[i])
}

// Median formats a median of n values with its interval's half-width in
// percent like benchstat: "2371 ±3%"; "–" without values.
func Median(n int, median, spreadPct float64) string {
	if n == 0 {
		return "–"
	}
	switch {
	case median == 0 && spreadPct == 0:
		return "0"
	case math.IsInf(spreadPct, 0):
		return Num(median, 3) + " ±∞"
	case math.IsNaN(spreadPct):
		return Num(median, 3) + " ±?"
	}
	return fmt.Sprintf("%s ±%.0f%%", Num(median, 3), spreadPct)
}

// Share writes a fraction as a percentage the way people write one: to
// six significant digits, without trailing zeros or an exponent: 0.001 is
// "0.1 %", 1e-6 "0.0001 %" (not 100*1e-6's 9.999999999999999e-05).
func Share(f float64) string {
	switch {
	case math.IsNaN(f):
		return "? %"
	case math.IsInf(f, 0):
		return "∞ %"
	}
	p, _ := strconv.ParseFloat(strconv.FormatFloat(100*f, 'g', 6, 64), 64)
	return strconv.FormatFloat(p, 'f', -1, 64) + " %"
}
