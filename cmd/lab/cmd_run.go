package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/systemd/host"
	"github.com/pgrst-lab/pgrst-lab/systemd/stack"
)

func init() {
	register(command{name: "run", summary: "run an experiment and write its report", run: cmdRun})
}

const runUsage = `run NAME|FILE [flags]

Runs an experiment (a bundled one by name, see 'lab validate', or a TOML
file) against the local stack (brought up and given the Chinook fixture when
needed) or the server its [target] names. Trials are interleaved and
repeated until the verdict is decided; the original configuration is always
restored. Writes RESULTS/<experiment>/<timestamp>/ and prints the verdicts.

With --agent URL the server side is a 'lab agent' on another host and the
load is generated here; repeat --agent to run the experiment on several
hosts (RESULTS/<host>/<experiment>/<timestamp>/ each, then one matrix
report in RESULTS/matrix/<experiment>/<timestamp>/), with one --token-file
per --agent in the same order.

To compare PostgREST builds without writing TOML, --binary NAME=PATH
(twice or more; the first is the baseline) replaces the experiment's
variants, e.g. 'lab run binaries --binary base=PATH --binary pr=PATH'
(see also 'lab ab'). For CI, --markdown FILE writes a summary sized for a
GitHub comment (also appended to $GITHUB_STEP_SUMMARY when that is set) and
--gate 'throughput<-3%,p99>+10%' exits with code 3 when a significant
change beyond a threshold is found.

With --profile (or profile = true in the file) every trial's measured
window also gets a CPU profile of the target and PostgreSQL (perf), GHC
runtime statistics of a Haskell target (+RTS -S): see README, "Profiling a
change".`

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runWith(ctx, "run", runUsage, args, stdout, stderr, func(pos []string, _ *prFlags) (string, error) {
		if len(pos) != 1 {
			return "", usageErrorf("run: give one experiment name or file (bundled: %v)", experiments.Names())
		}
		return pos[0], nil
	})
}

// runWith is `lab run` and `lab ab`: experiment turns the positional
// arguments into the experiment to load (and may set --binary and
// --scenarios, as `lab ab` does).
func runWith(ctx context.Context, name, usage string, args []string, stdout, stderr io.Writer, experiment func([]string, *prFlags) (string, error)) error {
	fs := newFlags(name, usage, stdout)
	dir := fs.String("dir", stack.DefaultDir, "state directory of the local stack")
	results := fs.String("results", "results", "where result directories are written")
	postgrest := fs.String("postgrest", "", "PostgREST binary, when this run brings the stack up")
	minTrials := fs.Int("min-trials", 0, "override trials.min")
	maxTrials := fs.Int("max-trials", 0, "override trials.max")
	duration := fs.Duration("duration", 0, "override load.duration")
	warmup := fs.Duration("warmup", -1, "override load.warmup")
	targets := fs.String("targets", "", "replay this targets file (vegeta's format, e.g. PostgREST's test/load/targets.http) as the only scenario")
	prof := fs.Bool("profile", false, "profile every trial's window (perf CPU profile, GHC runtime statistics, SQL); as profile = true")
	var af agentFlags
	af.add(fs)
	var pf prFlags
	pf.add(fs)
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	expName, err := experiment(pos, &pf)
	if err != nil {
		return err
	}
	e, err := loadExperiment(expName, *minTrials, *maxTrials, *duration, *warmup, pf.edit(ctx))
	if err != nil {
		return err
	}
	if err := useTargets(e, *targets); err != nil {
		return err
	}
	e.Profile = e.Profile || *prof
	if err := checkProfile(ctx, e, len(af.urls) > 0); err != nil {
		return err
	}
	if len(af.urls) > 0 {
		if pf.ci() {
			return usageErrorf("run --agent: --markdown and --gate work on a run on one host (without --agent)")
		}
		return runOnAgents(ctx, e, af, *results, stdout, stderr)
	}

	var srv *host.Server
	var url string
	var closeFn func()
	if e.Target.Unit != "" || e.Target.Config != "" || e.Target.URL != "" {
		stateDir, _ := filepath.Abs(filepath.Join(*dir, "agent"))
		srv, url, closeFn, err = targetServer(ctx, stateDir, e, stderr)
	} else {
		srv, url, closeFn, err = stackServer(ctx, *dir, *postgrest, e, stderr)
	}
	if err != nil {
		return err
	}
	defer closeFn()

	run, out, err := runAndReport(ctx, e, srv, url, *results, noteVersions(e, binaryVersions(ctx, e)), stdout)
	return pf.finish(run, out, err, stdout)
}

// runAndReport runs the experiment against one server side, then writes the
// result directory (under results) and prints the verdicts. Before writing,
// note may add to the record (e.g. the agent's clock).
func runAndReport(ctx context.Context, e *lab.Experiment, srv lab.Server, url, results string, note func(*lab.Run), stdout io.Writer) (*lab.Run, string, error) {
	fmt.Fprintf(stdout, "%s: %s\n  %s x %s, %d..%d rounds of %s load (%s warm-up)\n",
		e.Name, e.Title, plural(len(e.Variants), "variant"), plural(len(e.Scenarios), "scenario"), e.Trials.Min, e.Trials.Max, e.Load.Duration, e.Load.Warmup)
	runner := &lab.Runner{Server: srv, Loader: &trial.Loader{Target: loadgen.Target{URL: url}},
		Progress: newRunProgress(stdout), Decided: stats.DecidedFunc}
	run, runErr := runner.Run(ctx, e)
	if run == nil {
		return nil, "", runErr
	}
	run.Host.LabVersion = labVersion()
	if note != nil {
		note(run)
	}
	out, err := writeRun(results, run)
	if err != nil {
		return run, "", errors.Join(runErr, err)
	}
	fmt.Fprintln(stdout)
	report.Terminal(stdout, run, stats.Compare(run, 0))
	fmt.Fprintf(stdout, "\nreport: %s (report.md, report.html, run.json)\n", out)
	return run, out, runErr
}

// loadExperiment loads an experiment to run (bundled name or file),
// applies edits (e.g. --binary), resolves its $(VAR)s and applies the
// command line's overrides.
func loadExperiment(name string, min, max int, d, w time.Duration, edits ...func(*lab.Experiment) error) (*lab.Experiment, error) {
	e, err := experiments.LoadWith(name, postgrestKeys)
	if err != nil {
		return nil, err
	}
	for _, edit := range edits {
		if err := edit(e); err != nil {
			return nil, err
		}
	}
	if err := experiments.Expand(e, os.LookupEnv); err != nil {
		return nil, err
	}
	if err := override(e, min, max, d, w); err != nil {
		return nil, err
	}
	return e, nil
}

// override applies command-line overrides and validates the result again.
func override(e *lab.Experiment, min, max int, d, w time.Duration) error {
	if min > 0 {
		e.Trials.Min = min
		if e.Trials.Max < min {
			e.Trials.Max = min
		}
	}
	if max > 0 {
		e.Trials.Max = max
	}
	if d > 0 {
		e.Load.Duration = d
	}
	if w >= 0 {
		e.Load.Warmup = w
	}
	if errs := e.Validate(); len(errs) > 0 {
		return usageErrorf("after overrides: %v", errors.Join(errs...))
	}
	return nil
}

// writeRun writes run.json and the reports to RESULTS/<name>/<timestamp>/.
func writeRun(results string, run *lab.Run) (string, error) {
	dir := filepath.Join(results, run.Experiment.Name, run.Started.UTC().Format("20060102-150405"))
	if err := writeRunJSON(dir, run); err != nil {
		return "", err
	}
	if err := report.WriteAll(dir, run, stats.Compare(run, 0)); err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	return dir, nil
}

// useTargets applies --targets: the file's requests replace the
// experiment's scenarios. Every experiment's requests are checked here.
func useTargets(e *lab.Experiment, file string) error {
	if file != "" {
		abs, err := filepath.Abs(file)
		if err != nil {
			return err
		}
		e.UseTargets(abs, true)
		if errs := e.Validate(); len(errs) > 0 {
			return usageErrorf("with --targets: %v", errors.Join(errs...))
		}
	}
	return checkRequests(e)
}
