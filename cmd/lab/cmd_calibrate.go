package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/systemd/stack"
)

func init() {
	register(command{name: "calibrate", summary: "measure false positives and detection rate per effect size (a power curve)", run: cmdCalibrate})
}

const calibrateUsage = `calibrate [NAME|FILE] [--runs N] [--aa-runs N] [--effects 1,2,3x10,5,10] [flags]

Measures how sensitive an experiment's design is on this machine, against
the local stack's target. It repeats A/A runs (the experiment's baseline
variant against itself, on its first scenario; --aa-runs times) and A/A'
runs in which A' (variant A-prime) carries injected CPU work per request
sized to change the primary metric by each of --effects percent (--runs
times each; "3x10" gives 3% ten runs). --inject server (the default on
postgrest-mini) spins in its handler (PGRST_LAB_INJECT_CPU_US); --inject
database (the default on real PostgREST) has A and A' both call a
db-pre-request function in the stack's database that spins in PostgreSQL,
for A' only. The first A/A run sizes the injection; the others are
interleaved (A/A, 1%, 2%, ..., A/A, 1%, ...) so that the machine's drift
hits every effect alike. It reports the false-positive rate, and the
detection rate per effect (a power curve), as a table, calibration.md and
calibration.html (with a chart) under RESULTS/calibrate/<experiment>/<time>/.
Default experiment: socket-vs-tcp. Each run is bounded by trials.max; the
command prints the worst-case time first and one line per finished run;
Ctrl-C writes the report of the runs done so far.`

func cmdCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("calibrate", calibrateUsage, stdout)
	dir := fs.String("dir", stack.DefaultDir, "state directory of the local stack")
	results := fs.String("results", "results", "where result directories are written")
	runs := fs.Int("runs", 5, fmt.Sprintf("runs per effect size (1..%d)", calibrate.MaxRuns))
	aaRuns := fs.Int("aa-runs", 0, "A/A runs (default: --runs; at least 1, which sizes the injection)")
	inject := fs.String("inject", "", "where A' spins: server (postgrest-mini's handler) or database (a pre-request function, any target); default: server on postgrest-mini, else database")
	effectsFlag := fs.String("effects", "1,2,3,5,10", "injected slowdowns in percent, comma-separated (each in (0, 50]; 3x10: ten runs of 3%)")
	minTrials := fs.Int("min-trials", 0, "override trials.min")
	maxTrials := fs.Int("max-trials", 0, "override trials.max")
	duration := fs.Duration("duration", 0, "override load.duration")
	warmup := fs.Duration("warmup", -1, "override load.warmup")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErrorf("calibrate: give at most one experiment name or file (bundled: %v)", experiments.Names())
	}
	if *runs < 1 || *runs > calibrate.MaxRuns {
		return usageErrorf("calibrate: --runs %d must be in 1..%d", *runs, calibrate.MaxRuns)
	}
	if *aaRuns == 0 {
		*aaRuns = *runs
	}
	if *aaRuns < 1 || *aaRuns > calibrate.MaxRuns {
		return usageErrorf("calibrate: --aa-runs %d must be in 1..%d (the first A/A run sizes the injection)", *aaRuns, calibrate.MaxRuns)
	}
	effects, err := calibrate.ParseEffects(*effectsFlag, *runs)
	if err != nil {
		return usageErrorf("calibrate: --effects: %v", err)
	}
	name := "socket-vs-tcp"
	if len(pos) == 1 {
		name = pos[0]
	}
	e, err := loadExperiment(name, *minTrials, *maxTrials, *duration, *warmup)
	if err != nil {
		return err
	}
	if e.Target.Unit != "" || e.Target.Config != "" || e.Target.URL != "" {
		return usageErrorf("calibrate: %s targets an existing server; calibration injects work into the local stack only", e.Name)
	}
	srv, url, closeFn, err := stackServer(ctx, *dir, "", calibrate.Derive(e, calibrate.InjectServer, 0), stderr)
	if err != nil {
		return err
	}
	defer closeFn()
	_, target, err := srv.Describe(ctx)
	if err != nil {
		return err
	}
	inj, err := calibrate.ParseInjection(*inject, target.Reference)
	if err != nil {
		return usageErrorf("calibrate: %v", err)
	}
	c := &calibration{exp: e, srv: srv, url: url, out: stdout, aaRuns: *aaRuns, effects: effects, inject: inj}
	if inj == calibrate.InjectDatabase {
		if c.burn, err = newBurner(ctx, srv.AdminURI()); err != nil {
			return err
		}
		defer c.burn.close()
		fmt.Fprintf(stdout, "injecting in PostgreSQL: a pre-request function spins %.4f µs a loop iteration\n", c.burn.usPerIter)
	}
	return c.run(ctx, *results)
}

// calibration is one `lab calibrate`.
type calibration struct {
	exp     *lab.Experiment
	srv     lab.Server
	url     string
	out     io.Writer
	aaRuns  int
	effects []calibrate.Effect
	inject  calibrate.Injection
	burn    *burner // the database injection, nil for the server's
	dir     string
	done    int
	total   int
}

func (c *calibration) run(ctx context.Context, results string) error {
	e := c.exp
	start := time.Now()
	c.dir = filepath.Join(results, "calibrate", e.Name, start.UTC().Format("20060102-150405"))
	plan := calibrate.Schedule(c.aaRuns, c.effects)
	c.total = len(plan)
	perTrial := e.Load.Warmup + e.Load.Duration + stats.DefaultTrialOverhead
	worst := time.Duration(c.total*2*e.Trials.Max) * perTrial
	fmt.Fprintf(c.out, "calibrate %s: %d runs (%s) of 2 variants x %d..%d rounds of %s; at most about %s\n",
		e.Name, c.total, calibrate.PlanText(c.aaRuns, c.effects), e.Trials.Min, e.Trials.Max, e.Load.Duration, worst.Round(time.Second))
	res := &calibrate.Result{Experiment: e.Name, Load: e.Load, Trials: e.Trials, Started: start, AARuns: c.aaRuns, Effects: c.effects, Injection: c.inject}
	if c.burn != nil {
		res.BurnUsPerIteration = c.burn.usPerIter
	}
	finish := func(stopped error) error {
		res.Finished = time.Now()
		res.Rows = calibrate.Tally(res.Outcomes)
		if stopped != nil {
			res.Stopped = stopped.Error()
		}
		fmt.Fprintln(c.out)
		report.CalibrationTable(c.out, res)
		if err := report.WriteCalibration(c.dir, res); err != nil {
			return errors.Join(stopped, err)
		}
		fmt.Fprintf(c.out, "\nreport: %s (calibration.md, calibration.html, calibration.json; runs/*/run.json)\n", c.dir)
		return stopped
	}
	for _, p := range plan {
		us := 0
		if p.Effect > 0 {
			us = calibrate.InjectUs(p.Effect, res.Baseline)
		}
		run, o, err := c.one(ctx, p.Effect, us, p.N)
		if run != nil && res.Design == "" {
			res.Host, res.Target, res.Design = run.Host, run.Target, stats.Compare(run, 0).DesignMethod()
		}
		if ctx.Err() != nil {
			// Ctrl-C: this run's verdict is not final, so it stays out of the tally.
			return finish(fmt.Errorf("interrupted in run %d of %d (left out of the tally): %w", c.done, c.total, ctx.Err()))
		}
		res.Outcomes = append(res.Outcomes, o)
		if err != nil {
			return finish(err)
		}
		fmt.Fprintf(c.out, "    so far: %s\n", calibrate.SoFar(res.Outcomes, p.Effect))
		if p.Effect == 0 && p.N == 1 && len(c.effects) > 0 {
			b, ok := calibrate.BaselineOf(run)
			if !ok {
				return finish(errors.New("the first A/A run measured no throughput: cannot size the injected work"))
			}
			res.Baseline = b
		}
	}
	return finish(nil)
}

// one runs one calibration run and prints a line about it.
func (c *calibration) one(ctx context.Context, effect float64, us, i int) (*lab.Run, calibrate.Outcome, error) {
	c.done++
	label := "A/A"
	if effect > 0 {
		label = fmt.Sprintf("%g%% (%d µs)", effect, us)
	}
	if c.burn != nil {
		if err := c.burn.set(ctx, us); err != nil {
			return nil, calibrate.Outcome{EffectPct: effect, InjectUs: us, Error: err.Error()}, err
		}
	}
	e := calibrate.Derive(c.exp, c.inject, us)
	runner := &lab.Runner{Server: c.srv, Loader: &trial.Loader{Target: loadgen.Target{URL: c.url}},
		Progress: &calibrationProgress{w: c.out, prefix: fmt.Sprintf("  [%d/%d] %s #%d", c.done, c.total, label, i)},
		Decided:  stats.DecidedFunc}
	run, err := runner.Run(ctx, e)
	if run == nil {
		return nil, calibrate.Outcome{EffectPct: effect, InjectUs: us, Error: fmt.Sprint(err)}, err
	}
	run.Host.LabVersion = labVersion()
	o := calibrate.OutcomeOf(run, effect, us)
	o.Dir = filepath.Join("runs", fmt.Sprintf("%02d-%s-%d", c.done, strings.NewReplacer("%", "pct", " ", "", "(", "", ")", "", "/", "", "µ", "u").Replace(label), i))
	if werr := writeRunJSON(filepath.Join(c.dir, o.Dir), run); werr != nil {
		err = errors.Join(err, werr)
	}
	verdict := "~"
	if o.Significant {
		verdict = string(o.Outcome)
	}
	fmt.Fprintf(c.out, "[%d/%d] %s #%d: %s, change %+.1f%%, p=%.3f (%s), %d rounds, %s\n", c.done, c.total, label, i,
		verdict, o.DeltaPct, o.P, o.Test, o.Rounds, o.Took.Round(time.Second))
	return run, o, err
}

// writeRunJSON writes run.json into dir (made if missing), for lab run
// and for each of lab calibrate's runs.
func writeRunJSON(dir string, run *lab.Run) error { return record.Write(dir, run) }

// calibrationProgress prints one short line per finished trial.
type calibrationProgress struct {
	lab.NoProgress
	w      io.Writer
	prefix string
}

func (p *calibrationProgress) TrialDone(pos lab.Position, t lab.Trial) {
	what := fmt.Sprintf("%.0f req/s", t.Load.Rate)
	if t.Error != "" {
		what = "failed: " + t.Error
	}
	fmt.Fprintf(p.w, "%s round %d %s: %s\n", p.prefix, pos.Round, pos.Variant, what)
}
