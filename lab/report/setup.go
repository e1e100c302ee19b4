package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// interferenceDesc summarises how the trials shared the machine: the CPU
// the load generator used (it runs beside the server it measures unless an
// agent serves it) and the CPU other work used; "" when the machine's CPU
// was not measured.
func interferenceDesc(run *lab.Run) string {
	var shares, gen, genPerReq, steal []float64
	flagged := 0
	rates := generatedRates(run)
	for i, t := range run.Trials {
		if in := t.Interference; in != nil {
			shares = append(shares, in.Share)
			if run.Host.CPUs > 0 {
				steal = append(steal, in.Steal/float64(run.Host.CPUs))
			}
			if in.Flagged {
				flagged++
			}
			if in.Generator > 0 {
				gen = append(gen, in.Generator)
				if rates[i] > 0 {
					genPerReq = append(genPerReq, 1e6*in.Generator/rates[i])
				}
			}
		}
	}
	if len(shares) == 0 {
		return ""
	}
	slices.Sort(shares)
	s := ""
	if len(gen) > 0 {
		s = generatorDesc(run, gen, genPerReq) + "; "
	}
	s += fmt.Sprintf("other work used %.0f%% of the machine's CPUs (median; max %.0f%%) during the trials, limit %.0f%%",
		100*shares[len(shares)/2], 100*shares[len(shares)-1], 100*run.Experiment.Trials.InterferenceLimit())
	if slices.Max(append(steal, 0)) > 0 {
		slices.Sort(steal)
		s += fmt.Sprintf("; the hypervisor stole %.0f%% of the CPUs (median; max %.0f%%)", 100*steal[len(steal)/2], 100*steal[len(steal)-1])
	}
	if flagged > 0 {
		s += disturbedDesc(run)
	}
	return s
}

// generatedRates is, per trial, the rate the generator sent while it ran:
// the trial's own, or for a duet's half both halves' (the one generator
// process loads both at once, and its CPU is measured whole).
func generatedRates(run *lab.Run) []float64 {
	type round struct {
		rep      int
		scenario string
	}
	both := map[round]float64{}
	for _, t := range run.Trials {
		if t.Half != "" {
			both[round{t.Rep, t.Scenario}] += t.Load.Rate
		}
	}
	rates := make([]float64, len(run.Trials))
	for i, t := range run.Trials {
		rates[i] = t.Load.Rate
		if t.Half != "" {
			rates[i] = both[round{t.Rep, t.Scenario}]
		}
	}
	return rates
}

// generatorDesc says how much CPU the load generator used in the trials
// (cores, medians), its share of the machine when it ran on the machine
// measured, and its cost per request.
func generatorDesc(run *lab.Run, cores, perReq []float64) string {
	slices.Sort(cores)
	slices.Sort(perReq)
	med := cores[len(cores)/2]
	s := fmt.Sprintf("the load generator used %.2f cores (median; max %.2f)", med, cores[len(cores)-1])
	if run.Agent == nil && run.Host.CPUs > 0 {
		s += fmt.Sprintf(", %.0f%% of the machine's %d CPUs", 100*med/float64(run.Host.CPUs), run.Host.CPUs)
	}
	if len(perReq) > 0 {
		s += fmt.Sprintf(", %.0f µs per request", perReq[len(perReq)/2])
	}
	return s
}

// capacityDesc states the efficiency model's capacity per scenario under
// both conditions: the open model's (the search's highest rate within its
// limit) and the closed model's (the throughput with N connections, wrk's
// figure); when the open figure is well below the closed one it says what
// broke the limit above it. "" for other models.
func capacityDesc(run *lab.Run) string {
	var parts []string
	for _, c := range run.Capacity {
		s := fmt.Sprintf("%s (%s): open %s req/s", c.Scenario, c.Variant, num(c.Found))
		if c.Limit != (lab.Limit{}) { // records before the limit was kept lack it
			s += " within " + c.Limit.String()
		}
		if c.Closed > 0 {
			s += fmt.Sprintf("; closed with %d connections %s req/s", c.ClosedConnections, num(c.Closed))
			if c.Limit.Capped(c.Found) {
				s += " (the open figure is the search's max_rate, not a capacity)"
			} else if c.Found < 0.9*c.Closed {
				s += fmt.Sprintf(" (open/closed %.2f", c.Found/c.Closed)
				if why := brokeAbove(c); why != "" {
					s += "; above the open figure " + why
				}
				s += ")"
			}
		}
		parts = append(parts, s+fmt.Sprintf("; trials at %s req/s", num(c.Rate)))
	}
	return strings.Join(parts, "; ")
}

// brokeAbove says what the lowest failing step above the capacity measured,
// "" when the curve has none.
func brokeAbove(c lab.Capacity) string {
	var p *lab.CurvePoint
	for i := range c.Curve {
		q := &c.Curve[i]
		if !q.OK && q.AskedRate > c.Found && (p == nil || q.AskedRate < p.AskedRate) {
			p = q
		}
	}
	if p == nil {
		return ""
	}
	s := fmt.Sprintf("%s req/s asked got %s req/s, p99 %.1f ms", num(p.AskedRate), num(p.Rate), p.P99Ms)
	if p.Dropped > 0 {
		s += fmt.Sprintf(", %.1f%% dropped (every in-flight slot busy)", 100*p.Dropped)
	}
	if p.ErrorRate > 0 {
		s += fmt.Sprintf(", %.2f%% errors", 100*p.ErrorRate)
	}
	return s
}

// partitionDesc says which CPUs the generator, PostgREST and PostgreSQL
// were given, "" without a partition.
func partitionDesc(e lab.Experiment) string {
	var parts []string
	if g := e.Partition.Generator; g != "" {
		parts = append(parts, "load generator on CPUs "+g)
	}
	if p := e.Partition.PostgREST; p != "" {
		parts = append(parts, "PostgREST on CPUs "+p)
	}
	if p := e.Partition.PostgreSQL; p != "" {
		parts = append(parts, "PostgreSQL on CPUs "+p)
	}
	return strings.Join(parts, ", ")
}

// disturbedDesc says what became of the trials other work disturbed:
// left out (with the clean rounds that remain), or kept, flagged, when
// too few clean rounds remained, which makes the figures unreliable.
func disturbedDesc(run *lab.Run) string {
	leftOut, kept := 0, 0
	clean := map[int]bool{}
	for _, t := range run.Trials {
		switch in := t.Interference; {
		case in != nil && in.Flagged && t.Error != "":
			leftOut++
		case in != nil && in.Flagged:
			kept++
		case t.Error == "":
			clean[t.Rep] = true
		}
	}
	s := ""
	if leftOut > 0 {
		s += fmt.Sprintf("; %d trial(s) above it: their rounds are left out of the figures, %d clean round(s) remain", leftOut, len(clean))
	}
	if kept > 0 {
		s += fmt.Sprintf("; %d disturbed trial(s) kept, flagged, for want of clean rounds: figures from them are unreliable", kept)
	}
	return s
}

// scenarioLines say, one per scenario, what the run asked and what the
// answers weighed (lab.Run.Scenarios): "GETSingleEmbed2020: GET
// /album?select=*,track(*,genre(*))&artist_id=eq.127, answers 13.2 kB on
// average (headers included)". code formats a request (format.MdCode for
// Markdown, plain otherwise), text the rest (format.MdEscape or plain).
// None for records from before they were kept.
func scenarioLines(run *lab.Run, code, text func(string) string) []string {
	var out []string
	for _, sc := range run.Scenarios {
		var parts []string
		for _, r := range sc.Requests {
			s := code(r.Method + " " + r.Path)
			switch {
			case r.BodyBytes > 0 && r.BodyVaries:
				s += text(", body " + format.Bytes(float64(r.BodyBytes)) + " in the first request")
			case r.BodyBytes > 0:
				s += text(", body " + format.Bytes(float64(r.BodyBytes)))
			}
			parts = append(parts, s)
		}
		if sc.Total > len(sc.Requests) {
			parts = append(parts, text(fmt.Sprintf("… (%d requests in all)", sc.Total)))
		}
		if sc.Answers > 0 {
			parts = append(parts, text("answers "+format.Bytes(sc.AnswerBytes)+" on average (headers included)"))
		}
		if len(parts) > 0 {
			out = append(out, text(sc.Name+": ")+strings.Join(parts, text(", ")))
		}
	}
	return out
}

// datasetDesc says what the database held at the run's start (lab.Run.Dataset):
// "real Chinook (checksum 0a1b2c3d; artist 275, album 347, track 3503
// rows)", "generated set seed 1 (…)"; "" for records without it.
func datasetDesc(run *lab.Run) string {
	d := run.Dataset
	if d == nil {
		return ""
	}
	var s string
	switch {
	case d.Kind == lab.DatasetGenerated:
		s = fmt.Sprintf("generated set seed %d", d.Seed)
	case d.Kind == lab.DatasetFiles && slices.Contains(d.Files, "chinook.sql"):
		s = "real Chinook"
		if len(d.Files) > 1 {
			s += " from " + strings.Join(d.Files, ", ")
		}
	case d.Kind == lab.DatasetFiles:
		s = "SQL files " + strings.Join(d.Files, ", ")
	default:
		s = "a database no lab fixture marked"
	}
	facts := []string{"checksum " + d.Checksum[:min(8, len(d.Checksum))]}
	var rows []string
	for _, table := range []string{"artist", "album", "track", "big_rows"} {
		if n, ok := d.Rows[table]; ok {
			rows = append(rows, fmt.Sprintf("%s %d", table, n))
		}
	}
	if len(rows) > 0 {
		facts = append(facts, strings.Join(rows, ", ")+" rows")
	}
	for _, name := range slices.Sorted(maps.Keys(d.Schemas)) {
		facts = append(facts, fmt.Sprintf("schema %s of %d tables", name, d.Schemas[name]))
	}
	return s + " (" + strings.Join(facts, "; ") + ")"
}
