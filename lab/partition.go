package lab

import (
	"fmt"
	"maps"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
)

// partitioned is v as applied under e's partition: PostgREST's CPUs as its
// CPUAffinity drop-in, PostgreSQL's as its unit's; [trials] fresh as Restart.
func partitioned(e *Experiment, v Variant) Variant {
	v.PGCPUAffinity = e.Partition.PostgreSQL
	v.Restart = e.Trials.Fresh
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
	cpus, _ := cpulist.Parse(e.Partition.Generator) // validated
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
		cpus, err := cpulist.Parse(f.val)
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

// ServerCores is how many CPUs the server (PostgREST and PostgreSQL) may
// use: the union of the partition's lists when both are set, else every
// CPU of the host (cpus).
func ServerCores(e *Experiment, cpus int) int {
	if e.Partition.PostgREST == "" || e.Partition.PostgreSQL == "" {
		return cpus
	}
	a, _ := cpulist.Parse(e.Partition.PostgREST) // validated
	b, _ := cpulist.Parse(e.Partition.PostgreSQL)
	seen := map[int]bool{}
	for _, c := range append(a, b...) {
		seen[c] = true
	}
	return len(seen)
}

// OwnCores gives the server and the load generator cores of their own
// for a capacity figure (the search model: limits, scaling) on a host of
// cpus CPUs, unless the experiment partitions the CPUs itself: the
// generator CPU 0, PostgREST and PostgreSQL the others. The 2020
// benchmark drove its load from another instance; on one host a
// generator on the server's cores takes from what it measures. It returns
// what it did ("" when nothing): the report's partition line says it too.
func (e *Experiment) OwnCores(cpus int) string {
	if cpus < 2 || !e.Load.Model.SearchesEachTrial() || e.Partition != (Partition{}) {
		return ""
	}
	server := "1"
	if cpus > 2 {
		server = fmt.Sprintf("1-%d", cpus-1)
	}
	e.Partition = Partition{Generator: "0", PostgREST: server, PostgreSQL: server}
	return fmt.Sprintf("cores of their own: the load generator on CPU 0, PostgREST and PostgreSQL on CPUs %s (of %d)", server, cpus)
}

// hostHasCPUs fails, before anything changes, when the experiment pins to
// a CPU the host lacks ([partition], a variant's or a sweep's CPUAffinity
// or AllowedCPUs): a cores sweep written for a larger machine says so
// instead of failing its trials. cpus 0 (unknown) checks nothing.
func hostHasCPUs(e *Experiment, cpus int) error {
	if cpus <= 0 {
		return nil
	}
	check := func(where, list string) error {
		cs, err := cpulist.Parse(list)
		if err != nil {
			return nil // validated elsewhere
		}
		for _, c := range cs {
			if c >= cpus {
				return fmt.Errorf("%s %s names CPU %d, but this host has CPUs 0-%d: run it on a host with at least %d CPUs", where, list, c, cpus-1, slices.Max(cs)+1)
			}
		}
		return nil
	}
	p := e.Partition
	for _, f := range []struct{ where, list string }{{"partition.generator", p.Generator}, {"partition.postgrest", p.PostgREST}, {"partition.postgresql", p.PostgreSQL}} {
		if f.list != "" {
			if err := check(f.where, f.list); err != nil {
				return err
			}
		}
	}
	for _, v := range e.Variants {
		for _, k := range []string{"CPUAffinity", "AllowedCPUs"} {
			if list, ok := v.DropIn[k]; ok {
				if err := check("variant "+v.Name+": dropin."+k, list); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
