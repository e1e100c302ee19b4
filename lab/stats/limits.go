package stats

import (
	"cmp"
	"math"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// RatioScenario is the scenario a limits table divides every rate by: the
// 2020 benchmark's reference.
const RatioScenario = "GETSingle"

// RatioTo is the scenario a run's limits table divides by: the thread's
// exact GETSingle (GETSingle2020) when the run has it, else RatioScenario.
func RatioTo(run *lab.Run) string {
	if slices.Contains(run.Experiment.Scenarios, RatioScenario+"2020") {
		return RatioScenario + "2020"
	}
	return RatioScenario
}

// LimitRow is one (scenario, variant) of a capacity search run's limits
// table: the highest rate that met the experiment's limit, over the
// trials (repeats), with the figures of the step that reached it.
type LimitRow struct {
	Scenario, Variant string
	// Rate is the highest rate within the limit (http_reqs rate of the
	// step that met it), median and interval over the valid trials; Min
	// and Max are its range.
	Rate     Summary
	Min, Max float64
	// Trials counts the trials; Failed those that met no rate (crashed,
	// not ready, or no step within the limit), with the first reason.
	Trials, Failed int
	Why            string
	// At is the load of the valid trial whose rate is the median (the
	// lower middle one for an even count): k6's columns and the latency
	// percentiles come from it, as measured, not mixed across trials.
	At lab.LoadStats
	// ServerUs and DBUs are CPU microseconds per request (medians).
	ServerUs, DBUs float64
	// PeakRSS is the target's highest resident memory in this scenario's
	// trials, bytes.
	PeakRSS uint64
	// PerMillion is the cost of a million requests at Rate's median on
	// the run's host, in the experiment's [cost] currency (NaN without
	// prices).
	PerMillion float64
	// Ratio is Rate's median over RatioScenario's for the same variant
	// (NaN when that scenario did not run or met no rate); Ratio2020 the
	// same ratio in the 2020 benchmark (NaN when it lacks the scenario).
	Ratio, Ratio2020 float64

	// A sustained search's (Limit.Hold): Rate is then the offered rate
	// each trial held. Mean is the held rates' mean and HalfWidth its 95 %
	// interval's half-width (Student's t over the trials; NaN under two);
	// Precise says it is within LimitPrecision of Mean.
	Sustained       bool
	Mean, HalfWidth float64
	Precise         bool
	// Closed is the closed-loop saturation throughput (the median over
	// the trials that swept the concurrency), at ClosedConns connections
	// (the median trial's); 0 when none swept.
	Closed      float64
	ClosedConns int
	// AtShares are the latency steps at shares of the limit, from the
	// median trial that measured them.
	AtShares []lab.CurvePoint
}

// LimitPrecision is the half-width, as a share of the mean, a sustained
// limit's 95 % interval must reach for the run to stop early: ±5 %.
const LimitPrecision = 0.05

// LimitsPrecise reports whether every row of a sustained limits run has
// its interval within LimitPrecision with at least trials.min trials: the
// run's stop rule when it compares nothing (one variant).
func LimitsPrecise(run *lab.Run) bool {
	rows := Limits(run)
	if len(rows) == 0 {
		return false
	}
	for _, r := range rows {
		if !r.Sustained || r.Rate.N < run.Experiment.Trials.Min || !r.Precise {
			return false
		}
	}
	return true
}

// SettledFunc is the run loop's per-scenario stop (lab.Runner.Settled):
// in a sustained limits run of one variant (nothing compared, so nothing
// paired), a scenario whose limit is precise after trials.min is settled
// and later rounds skip it. A comparison never settles a scenario early:
// its rounds must stay paired.
func SettledFunc(run *lab.Run, variant, scenario string) bool {
	if !run.Experiment.Load.Limit.Sustained() || len(run.Experiment.Variants) != 1 {
		return false
	}
	r, ok := limitRow(run, variant, scenario)
	return ok && r.Sustained && r.Rate.N >= run.Experiment.Trials.Min && r.Precise
}

// Limits computes the limits table of a run whose trials are capacity
// searches (the search model), scenario by scenario in the run's order,
// every variant in turn; nil for other models.
func Limits(run *lab.Run) []LimitRow {
	if !run.Experiment.Load.Model.SearchesEachTrial() {
		return nil
	}
	var rows []LimitRow
	for _, sc := range ScenarioNames(run) {
		for _, name := range VariantNames(run) {
			if r, ok := limitRow(run, name, sc); ok {
				rows = append(rows, r)
			}
		}
	}
	ratioTo := RatioTo(run)
	for i := range rows {
		rows[i].Ratio = math.NaN()
		for _, ref := range rows {
			if ref.Scenario == ratioTo && ref.Variant == rows[i].Variant && ref.Rate.N > 0 && ref.Rate.Median > 0 {
				rows[i].Ratio = rows[i].Rate.Median / ref.Rate.Median
			}
		}
		rows[i].PerMillion = math.NaN()
		if rows[i].Rate.N > 0 {
			rows[i].PerMillion = run.Experiment.Cost.PerMillion("", run.Host, rows[i].Rate.Median)
		}
		rows[i].Ratio2020 = math.NaN()
		if r, ok := postgrest.Benchmark2020Ratio(rows[i].Scenario); ok {
			rows[i].Ratio2020 = r
		}
	}
	return rows
}

func limitRow(run *lab.Run, variant, scenario string) (LimitRow, bool) {
	trials := TrialsOf(run, variant, scenario)
	if len(trials) == 0 {
		return LimitRow{}, false
	}
	r := LimitRow{Scenario: scenario, Variant: variant, Trials: len(trials), Sustained: run.Experiment.Load.Limit.Sustained(),
		Mean: math.NaN(), HalfWidth: math.NaN()}
	var valid []lab.Trial
	var server, db []float64
	for _, t := range trials {
		r.PeakRSS = max(r.PeakRSS, t.Server.PeakRSS)
		why := t.Error
		if why == "" && t.Load.Requests == 0 {
			why = "no rate met the limit"
		}
		if why != "" {
			r.Failed++
			if r.Why == "" {
				r.Why = why
			}
			continue
		}
		valid = append(valid, t)
		if t.Server.CPUPerRequestUs > 0 {
			server = append(server, t.Server.CPUPerRequestUs)
		}
		if t.Database.CPUPerRequestUs > 0 {
			db = append(db, t.Database.CPUPerRequestUs)
		}
	}
	r.Rate = Summary{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	r.ServerUs, r.DBUs = math.NaN(), math.NaN()
	if len(valid) == 0 {
		return r, true
	}
	rate := func(t lab.Trial) float64 { return t.Load.Rate }
	if r.Sustained {
		rate = func(t lab.Trial) float64 { return t.Load.AskedRate } // the offered rate it held
	}
	slices.SortFunc(valid, func(a, b lab.Trial) int { return cmp.Compare(rate(a), rate(b)) })
	rates := make([]float64, len(valid))
	for i, t := range valid {
		rates[i] = rate(t)
	}
	r.Rate, _ = Summarize(rates)
	r.Min, r.Max = rates[0], rates[len(rates)-1]
	r.At = valid[(len(valid)-1)/2].Load
	if r.Sustained {
		r.Mean, r.HalfWidth = meanCI(rates)
		r.Precise = !math.IsNaN(r.HalfWidth) && r.HalfWidth <= LimitPrecision*r.Mean
		r.Closed, r.ClosedConns, r.AtShares = sweepFigures(valid)
	}
	if len(server) > 0 {
		r.ServerUs = Median(server)
	}
	if len(db) > 0 {
		r.DBUs = Median(db)
	}
	return r, true
}

// meanCI is the mean of xs and the half-width of its 95 % interval
// (Student's t); NaN half-width under two values.
func meanCI(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	return mean, tQuantile(n-1, 1-(1-Confidence)/2) * sd / math.Sqrt(n)
}

// sweepFigures are a sustained search's closed-loop saturation (median
// over the trials that swept) and the latency at shares of the limit,
// from the trials in rate order (the median trial's, else the nearest).
func sweepFigures(valid []lab.Trial) (closed float64, conns int, at []lab.CurvePoint) {
	type best struct {
		rate  float64
		conns int
	}
	var bests []best
	var ats [][]lab.CurvePoint
	for _, t := range valid {
		var b best
		var a []lab.CurvePoint
		for _, p := range t.Curve {
			switch {
			case p.Kind == "closed" && p.OK && p.Rate > b.rate:
				b = best{p.Rate, p.Connections}
			case p.Kind == "at":
				a = append(a, p)
			}
		}
		if b.rate > 0 {
			bests = append(bests, b)
		}
		if len(a) > 0 {
			ats = append(ats, a)
		}
	}
	if len(bests) > 0 {
		slices.SortFunc(bests, func(x, y best) int { return cmp.Compare(x.rate, y.rate) })
		m := bests[(len(bests)-1)/2]
		closed, conns = m.rate, m.conns
	}
	if len(ats) > 0 {
		at = ats[(len(ats)-1)/2]
	}
	return closed, conns, at
}
