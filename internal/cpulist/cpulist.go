// Package cpulist reads and writes CPU lists in systemd's CPUAffinity form
// (numbers and ranges, "0,2-3"): the one rule for [partition], the
// CPUAffinity and AllowedCPUs drop-in settings and the lists handed to
// taskset(1).
package cpulist

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxCPU bounds the CPU numbers a list may name.
const MaxCPU = 1023

// Parse reads a CPU list: numbers and ranges separated by commas or spaces
// ("0", "0,2-3", "1 3"), in the order given, each CPU once.
func Parse(s string) ([]int, error) {
	var cpus []int
	seen := map[int]bool{}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("%q is not a CPU list (e.g. \"0\" or \"0,2-3\")", s)
	}
	for _, f := range fields {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b > MaxCPU {
			return nil, fmt.Errorf("%q is not a CPU list (e.g. \"0\" or \"0,2-3\"; CPUs 0..%d)", s, MaxCPU)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				cpus = append(cpus, c)
			}
		}
	}
	return cpus, nil
}

// Format writes CPUs as a list Parse reads back, and taskset -c takes:
// "0,1,4".
func Format(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}
