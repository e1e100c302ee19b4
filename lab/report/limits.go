package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// LimitCells are a limits row's cells as every format shows them.
type LimitCells struct {
	Scenario, Variant string
	Rate              string // median highest rate within the limit, req/s
	Spread            string // its interval over the trials, or its range
	Count             string // http_reqs count of the median trial's step
	Avg               string // http_req_duration avg, ms
	P50, P95, P99     string // latency percentiles of that step, ms
	Received, Sent    string // data_received, data_sent
	Conns             string // the most requests in flight at once (an open model has no VUs)
	Failed            string // failed requests of that step
	ServerUs, DBUs    string // CPU µs per request
	PeakRSS           string
	PerMillion        string // cost of a million requests ("" without prices)
	Ratio, Ratio2020  string
	Trials            string // "3" or "2 of 3 (1 crashed: ...)"
	// A sustained search's (Limit.Hold), "" otherwise: the closed-loop
	// saturation throughput and its connections, the limit over it, the
	// latency (p50 / p95 / p99 ms) at 50 % and 80 % of the limit and at
	// it (the hold), and the rate the server's cores allow at the
	// measured CPU per request.
	Sustained              bool
	Closed, OfClosed       string
	AtHalf, AtFour, AtHold string
	Cores, Bound           string
}

// LimitsCells formats stats.Limits(run).
func LimitsCells(run *lab.Run) []LimitCells {
	var out []LimitCells
	for _, r := range stats.Limits(run) {
		c := LimitCells{Scenario: r.Scenario, Variant: r.Variant, Trials: fmt.Sprint(r.Trials)}
		if r.Failed > 0 {
			c.Trials = fmt.Sprintf("%d of %d (%s)", r.Trials-r.Failed, r.Trials, format.Clip(r.Why, 80))
		}
		if r.Rate.N == 0 {
			c.Rate = "none"
			out = append(out, c)
			continue
		}
		a := r.At
		c.Rate = num(r.Rate.Median)
		switch {
		case r.Sustained && !math.IsNaN(r.HalfWidth):
			c.Spread = fmt.Sprintf("±%s%% (95%% CI of the mean %s, n=%d)", format.Num(100*r.HalfWidth/r.Mean, 2), num(r.Mean), r.Rate.N)
			if !r.Precise {
				c.Spread += fmt.Sprintf(", wider than ±%s%%", format.Num(100*stats.LimitPrecision, 2))
			}
		case r.Rate.Bounded():
			c.Spread = fmt.Sprintf("%s–%s (%.0f%% CI)", num(r.Rate.Lo), num(r.Rate.Hi), 100*stats.Confidence)
		case r.Rate.N > 1:
			c.Spread = fmt.Sprintf("%s–%s (range)", num(r.Min), num(r.Max))
		}
		c.Count = fmt.Sprintf("%d", a.Requests)
		c.Avg, c.P50, c.P95, c.P99 = num(a.ServiceMs.Mean), num(a.LatencyMs.P50), num(a.LatencyMs.P95), num(a.LatencyMs.P99)
		c.Received, c.Sent = format.Bytes(float64(a.BytesIn)), format.Bytes(float64(a.BytesOut))
		c.Conns = fmt.Sprint(a.MaxInFlight)
		c.Failed = "0"
		if a.Requests > 0 && a.Errors > 0 {
			c.Failed = fmt.Sprintf("%d (%s %%)", a.Errors, format.Num(100*float64(a.Errors)/float64(a.Requests), 2))
		}
		c.ServerUs, c.DBUs = numOrDash(r.ServerUs), numOrDash(r.DBUs)
		if r.PeakRSS > 0 {
			c.PeakRSS = format.Bytes(float64(r.PeakRSS))
		}
		c.Ratio, c.Ratio2020 = ratio(r.Ratio), ratio(r.Ratio2020)
		if !math.IsNaN(r.PerMillion) {
			c.PerMillion = run.Experiment.Cost.Symbol() + format.Num(r.PerMillion, 3)
		}
		if r.Sustained {
			sustainedCells(&c, r, run)
		}
		out = append(out, c)
	}
	return out
}

// minCITrials is the fewest values with a 95 % interval around a median
// (benchmath, assuming nothing): fewer show their range.
const minCITrials = 6

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func numOrDash(v float64) string {
	if math.IsNaN(v) || v <= 0 {
		return "–"
	}
	return num(v)
}

func ratio(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return num(v)
}

// limitsIntro says what the table holds, for every format.
func limitsIntro(run *lab.Run) string {
	if run.Experiment.Load.Limit.Sustained() {
		return fmt.Sprintf("Per scenario, the highest offered rate the target sustained (%s), the median over the trials with "+
			"the 95 %% interval of their mean; the other columns are the median trial's hold: k6's http_reqs, http_req_duration avg "+
			"(from the send), latency percentiles (from the intended start), data, the most requests in flight at once, failures; "+
			"then CPU per request, the scenario's peak RSS of the target, and the rate over %s's beside the %s.",
			run.Experiment.Load.Limit.String(), stats.RatioTo(run), postgrest.Benchmark2020Machine)
	}
	return fmt.Sprintf("Per scenario, the highest request rate that met the limit (%s), median over the trials with its interval "+
		"(or range, under %d trials); the other columns are the measured step of the median trial: k6's http_reqs, "+
		"http_req_duration avg (from the send), latency percentiles (from the intended start), data, the most requests "+
		"in flight at once (an open model has no VUs), failures; then CPU per request, the scenario's peak RSS of the target, and "+
		"the rate over %s's beside the %s.", run.Experiment.Load.Limit.String(), minCITrials, stats.RatioTo(run), postgrest.Benchmark2020Machine)
}

// limitsReproduce is the command that measures the table again, and what
// it measured: the target's version, the lab's, the machine.
func limitsReproduce(run *lab.Run) (cmd, what string) {
	cmd = "lab run " + run.Experiment.Name
	if run.Experiment.Source != "" {
		cmd = "lab run " + run.Experiment.Source
	}
	what = fmt.Sprintf("%s, measured by pgrst-lab %s on %s", TargetDesc(run.Target), run.Host.LabVersion, HostDesc(run.Host))
	return cmd, what
}

// mdLimits writes the limits table (search runs), one table per variant.
func mdLimits(b *bufio.Writer, run *lab.Run) {
	cells := LimitsCells(run)
	if len(cells) == 0 {
		return
	}
	fmt.Fprintf(b, "## Limits\n\n")
	fmt.Fprint(b, format.MdPara(limitsIntro(run)))
	for _, variant := range variantsOf(cells) {
		fmt.Fprintf(b, "%s:\n\n", format.MdCode(variant))
		fmt.Fprintf(b, "| scenario | req/s | interval | http_reqs | duration avg ms | p50 ms | p95 ms | p99 ms | data_received | data_sent | peak in flight | failed | server µs/req | db µs/req | peak RSS | per 1M req | vs %s | 2020 | trials |\n", stats.RatioTo(run))
		fmt.Fprintf(b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
		for _, c := range cells {
			if c.Variant != variant {
				continue
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				format.MdEscape(c.Scenario), c.Rate, c.Spread, c.Count, c.Avg, c.P50, c.P95, c.P99, c.Received, c.Sent, c.Conns,
				c.Failed, c.ServerUs, c.DBUs, c.PeakRSS, orDash(c.PerMillion), c.Ratio, c.Ratio2020, format.MdEscape(c.Trials))
		}
		fmt.Fprintln(b)
		mdSaturation(b, cells, variant)
	}
	cmd, what := limitsReproduce(run)
	fmt.Fprint(b, format.MdPara("Reproduce with "+format.MdCode(cmd)+" on the same stack ("+format.MdEscape(what)+")."))
}

func variantsOf(cells []LimitCells) []string {
	var out []string
	for _, c := range cells {
		if !slices.Contains(out, c.Variant) {
			out = append(out, c.Variant)
		}
	}
	return out
}

// LimitsText writes the limits table for the terminal, one block per variant.
func LimitsText(w io.Writer, run *lab.Run) {
	cells := LimitsCells(run)
	if len(cells) == 0 {
		return
	}
	fmt.Fprintf(w, "\nLimits (%s; median over trials, the median trial's step):\n", run.Experiment.Load.Limit.String())
	for _, variant := range variantsOf(cells) {
		fmt.Fprintf(w, "\n%s\n", textsafe.Plain(variant))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "scenario\treq/s\tinterval\thttp_reqs\tavg ms\tp99 ms\tdata_received\tfailed\tserver µs/req\tdb µs/req\tpeak RSS\tper 1M req\tvs %s\t2020\t\n", stats.RatioTo(run))
		for _, c := range cells {
			if c.Variant != variant {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", textsafe.Plain(c.Scenario), c.Rate, c.Spread, c.Count, c.Avg, c.P99,
				c.Received, c.Failed, c.ServerUs, c.DBUs, c.PeakRSS, orDash(c.PerMillion), c.Ratio, c.Ratio2020)
		}
		tw.Flush()
		fmt.Fprintln(w)
		textSaturation(w, cells, variant)
		for _, c := range cells {
			if c.Variant == variant && strings.Contains(c.Trials, "of") {
				fmt.Fprintf(w, "  %s: valid trials %s\n", textsafe.Plain(c.Scenario), textsafe.Plain(c.Trials))
			}
		}
	}
}

// sustainedCells fills a sustained row's saturation and latency cells.
func sustainedCells(c *LimitCells, r stats.LimitRow, run *lab.Run) {
	c.Sustained = true
	c.Closed, c.OfClosed = "–", "–"
	if r.Closed > 0 {
		c.Closed = fmt.Sprintf("%s (%d conns)", num(r.Closed), r.ClosedConns)
		c.OfClosed = num(r.Rate.Median / r.Closed)
	}
	lat := func(p50, p95, p99 float64) string { return num(p50) + " / " + num(p95) + " / " + num(p99) }
	c.AtHalf, c.AtFour = "–", "–"
	for _, p := range r.AtShares {
		switch p.Share {
		case 0.5:
			c.AtHalf = lat(p.P50Ms, p.P95Ms, p.P99Ms)
		case 0.8:
			c.AtFour = lat(p.P50Ms, p.P95Ms, p.P99Ms)
		}
	}
	c.AtHold = lat(r.At.LatencyMs.P50, r.At.LatencyMs.P95, r.At.LatencyMs.P99)
	cores := lab.ServerCores(&run.Experiment, run.Host.CPUs)
	c.Cores, c.Bound = fmt.Sprint(cores), "–"
	if us := r.ServerUs + r.DBUs; cores > 0 && !math.IsNaN(us) && us > 0 {
		c.Bound = num(float64(cores) * 1e6 / us)
	}
}

// saturationIntro says what the second limits table holds.
func saturationIntro() string {
	return "Beside each limit: the closed-loop saturation throughput (the highest of 1, 2, 4, ... connections, as wrk and k6's VUs " +
		"measure) and the limit over it; latency p50 / p95 / p99 in ms at 50 % and 80 % of the limit and at the limit (the hold); " +
		"the cores the server (PostgREST and PostgreSQL) had, and the rate they allow at the CPU each request cost (cores / CPU per request): " +
		"a limit above that bound would be a measurement error, and is refused."
}

// mdSaturation writes the second limits table of a sustained run.
func mdSaturation(b *bufio.Writer, cells []LimitCells, variant string) {
	if !slices.ContainsFunc(cells, func(c LimitCells) bool { return c.Sustained }) {
		return
	}
	fmt.Fprint(b, format.MdPara(saturationIntro()))
	fmt.Fprintf(b, "| scenario | limit req/s | closed-loop best | limit ÷ closed | at 50 %% | at 80 %% | at the limit | server cores | cores' bound req/s |\n")
	fmt.Fprintf(b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range cells {
		if c.Variant == variant && c.Sustained {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", format.MdEscape(c.Scenario), c.Rate, c.Closed, c.OfClosed,
				c.AtHalf, c.AtFour, c.AtHold, c.Cores, c.Bound)
		}
	}
	fmt.Fprintln(b)
}

// textSaturation writes it for the terminal.
func textSaturation(w io.Writer, cells []LimitCells, variant string) {
	if !slices.ContainsFunc(cells, func(c LimitCells) bool { return c.Sustained }) {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "scenario\tlimit req/s\tclosed-loop best\tlimit/closed\tat 50%% (p50/p95/p99 ms)\tat 80%%\tat the limit\tserver cores\tcores' bound\t\n")
	for _, c := range cells {
		if c.Variant == variant && c.Sustained {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", textsafe.Plain(c.Scenario), c.Rate, c.Closed, c.OfClosed, c.AtHalf, c.AtFour, c.AtHold, c.Cores, c.Bound)
		}
	}
	tw.Flush()
}
