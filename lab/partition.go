package lab

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// maxCPU bounds the CPU numbers a list may name.
const maxCPU = 1023

// ParseCPUList reads a CPU list in systemd's CPUAffinity form: numbers
// and ranges separated by commas or spaces ("0", "0,2-3", "1 3").
func ParseCPUList(s string) ([]int, error) {
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
		if err1 != nil || err2 != nil || a < 0 || b < a || b > maxCPU {
			return nil, fmt.Errorf("%q is not a CPU list (e.g. \"0\" or \"0,2-3\"; CPUs 0..%d)", s, maxCPU)
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

// partitioned is v as applied under e's partition: PostgREST's CPUs as its
// CPUAffinity drop-in, PostgreSQL's as its unit's.
func partitioned(e *Experiment, v Variant) Variant {
	v.PGCPUAffinity = e.Partition.PostgreSQL
	if e.Partition.PostgREST == "" {
		return v
	}
	v.DropIn = maps.Clone(v.DropIn)
	if v.DropIn == nil {
		v.DropIn = map[string]string{}
	}
	v.DropIn["CPUAffinity"] = e.Partition.PostgREST
	return v
}

// generatorCPUs is the partition's CPU list for the load generator.
func generatorCPUs(e *Experiment) []int {
	if e.Partition.Generator == "" {
		return nil
	}
	cpus, _ := ParseCPUList(e.Partition.Generator) // validated
	return cpus
}

// partition checks the [partition] table: CPU lists, PostgREST's apart
// from the generator's, and no variant setting CPUAffinity itself.
func (v *validator) partition(e *Experiment) {
	p := e.Partition
	lists := map[string][]int{}
	for _, f := range []struct{ key, val string }{{"generator", p.Generator}, {"postgrest", p.PostgREST}, {"postgresql", p.PostgreSQL}} {
		if f.val == "" {
			continue
		}
		cpus, err := ParseCPUList(f.val)
		if err != nil {
			v.add(err.Error(), "partition", f.key)
			continue
		}
		lists[f.key] = cpus
	}
	for _, c := range lists["postgrest"] {
		if slices.Contains(lists["generator"], c) {
			v.add(fmt.Sprintf("CPU %d is also the generator's: PostgREST and the generator must not share CPUs (PostgreSQL may share with either)", c), "partition", "postgrest")
			break
		}
	}
	if p.PostgREST == "" {
		return
	}
	for i, va := range e.Variants {
		if _, ok := va.DropIn["CPUAffinity"]; ok {
			v.add("set by [partition] postgrest for every variant; set one or the other", fmt.Sprintf("variant[%d]", i), "dropin", "CPUAffinity")
		}
	}
}
