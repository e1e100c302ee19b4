package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func init() {
	register(command{name: "plan", summary: "estimate the trials and time an experiment needs to detect an effect", run: cmdPlan})
}

const planUsage = `plan NAME|FILE --effect 3% [--from DIR] [--results DIR] [--cv 0.05]

Estimates how many rounds (trials per variant and scenario) the experiment
needs so that a change of --effect in its primary metric is detected with
80% power at its alpha, with its design (paired or not, sequential looks
from trials.min), and how long that takes. The noise comes from an earlier
run's run.json (the largest spread of its per-round ratios, and its time
per trial): --from DIR, else the newest run of the experiment under
--results (results/NAME/...); with none, from --cv, the relative noise
per trial, assumed.`

func cmdPlan(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("plan", planUsage, stdout)
	effect := fs.String("effect", "", "the change to detect, in percent (e.g. 3% or 3)")
	from := fs.String("from", "", "result directory of an earlier run to take the noise from")
	cv := fs.Float64("cv", stats.DefaultCV, "relative noise per trial when no earlier run is found (0.05 = 5%)")
	results := fs.String("results", "results", "where earlier runs are looked for when --from is not given")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("plan: give one experiment name or file (bundled: %v)", experiments.Names())
	}
	eff, err := parsePercent(*effect)
	if err != nil {
		return usageErrorf("plan: --effect: %v", err)
	}
	if !(*cv > 0 && *cv < 1) {
		return usageErrorf("plan: --cv %v must be in (0, 1), e.g. 0.05 for 5%%", *cv)
	}
	e, err := experiments.LoadWith(pos[0], postgrestKeys)
	if err != nil {
		return err
	}
	nz := stats.Noise{SD: *cv * math.Sqrt2, Paired: e.Trials.Analysis != stats.AnalysisUnpaired}
	source := fmt.Sprintf("assumed: %.1f%% noise per trial (--cv)", 100**cv)
	if !nz.Paired {
		nz.SD = *cv
	}
	var run *lab.Run
	if *from != "" {
		if run, err = record.ReadDir(*from); err != nil {
			return err
		}
	} else if !flagGiven(fs, "cv") {
		dir, latest, err := record.Latest(*results, e.Name)
		switch {
		case errors.Is(err, record.ErrNoRun):
			source = fmt.Sprintf("assumed: %.1f%% noise per trial (--cv): no earlier run of %s under %s (--from DIR names one)", 100**cv, e.Name, *results)
		case err != nil:
			return fmt.Errorf("plan: looking for an earlier run under %s: %w", *results, err)
		default:
			run, *from = latest, dir
		}
	}
	if run != nil {
		measured, ok := stats.NoiseOf(run, e.Trials.Analysis)
		if !ok {
			return fmt.Errorf("plan: %s: no variant has two trials to estimate the noise from", *from)
		}
		nz = measured
		kind := "per-round ratios"
		if !nz.Paired {
			kind = "trials (unpaired)"
		}
		source = fmt.Sprintf("measured in %s: spread of %s %.1f%% (%d values)", *from, kind, 100*nz.SD, nz.N)
	}
	p := stats.PlanFor(e, nz, eff)
	writePlan(stdout, e.Name, source, p, e.Trials.Max)
	return nil
}

func writePlan(w io.Writer, name, source string, p stats.Plan, max int) {
	test := "paired signed-rank"
	if !p.Noise.Paired {
		test = "Mann-Whitney U"
	}
	fmt.Fprintf(w, "%s: detecting a ±%.1f%% change with 80%% power (%s)\n", name, p.EffectPct, test)
	fmt.Fprintf(w, "  noise      %s\n", source)
	if !p.OK {
		fmt.Fprintf(w, "  needs      more than %d rounds: out of reach with this noise\n", p.Rounds)
		fmt.Fprintf(w, "  as written trials.max = %d detects about ±%.1f%%\n", max, p.MDEAtMax)
		fmt.Fprintf(w, "  out of reach: a ±%.1f%% change cannot be told from this noise in any practical run; reduce the noise (efficiency mode, a quieter machine, measure it with a run instead of assuming it) or look for a larger effect\n", p.EffectPct)
		return
	}
	fmt.Fprintf(w, "  needs      %d rounds (trials per variant and scenario): %d trials, about %s\n", p.Rounds, p.Trials, p.Duration.Round(time.Second))
	advice := "enough"
	if p.Rounds > max {
		advice = fmt.Sprintf("raise trials.max to %d (or --max-trials %d)", p.Rounds, p.Rounds)
	}
	fmt.Fprintf(w, "  as written trials.max = %d detects about ±%.1f%%: %s\n", max, p.MDEAtMax, advice)
}

// flagGiven reports whether the flag name was given on the command line
// (--cv: then the noise is the user's, not an earlier run's).
func flagGiven(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parsePercent reads "3%", "3" or "+3 %" as 3.
func parsePercent(s string) (float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	if t == "" {
		return 0, fmt.Errorf("missing (e.g. --effect 3%%)")
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f == 0 || math.Abs(f) >= 100 {
		return 0, fmt.Errorf("%q is not a percentage between 0 and 100 (e.g. 3%%)", s)
	}
	return math.Abs(f), nil
}
