package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"time"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
	"github.com/pgrst-lab/pgrst-lab/store"
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
runtime statistics of a Haskell target (+RTS -S): see
docs/prs-and-profiling.md, "Profiling a change".

With --store URI (or $LAB_STORE) the run is also written to the shared
results store, a PostgreSQL database on another server than the measured
one, when it ends (never during trials): see docs/history-and-store.md. The
store is checked (reachable, migrated, not on the measured PostgreSQL
cluster) before the first trial; a store that fails at the end leaves the
result directory written ('lab push DIR' imports it later) and exits
non-zero.`

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runWith(ctx, "run", runUsage, args, stdout, stderr, func(pos []string, pf *prFlags) (string, error) {
		if pf.git.base != "" || pf.git.release != "" {
			return "", usageErrorf("run: --base and --release are lab ab's (lab ab --repo DIR HEAD --base main --release latest)")
		}
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
	ed := editFlags(fs)
	fs.StringVar(&ed.Targets, "targets", "", "replay this targets file (vegeta's format, e.g. PostgREST's test/load/targets.http) as the only scenario")
	fs.BoolVar(&ed.Profile, "profile", false, "profile every trial's window (perf CPU profile, GHC runtime statistics, SQL); as profile = true")
	var af agentFlags
	af.add(fs)
	var pf prFlags
	pf.add(fs)
	storeURI := storeFlag(fs)
	strict := fs.Bool("strict", false, "exit 1 when a figure cannot be quoted: disturbed rounds kept for want of clean ones, a limit's interval over ±5 %")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	pf.git.progress = stdout
	expName, err := experiment(pos, &pf)
	if err != nil {
		return err
	}
	ed.Edit = append(ed.Edit, pf.edit(ctx))
	if len(af.urls) == 0 { // the server and the generator share this host
		ed.OwnCores = runtime.NumCPU()
	}
	e, err := loadExperiment(expName, *ed)
	if err != nil {
		return err
	}
	if err := checkProfiling(ctx, e, len(af.urls) > 0); err != nil {
		return err
	}
	if len(af.urls) > 0 {
		if pf.ci() {
			return usageErrorf("run --agent: --markdown and --gate work on a run on one host (without --agent)")
		}
		if storeFrom(*storeURI) != "" {
			return usageErrorf("run --agent: --store (or $%s) works on a run on one host (without --agent): import the result directories with 'lab push'", store.EnvURI)
		}
		return runOnAgents(ctx, e, af, *results, stdout, stderr)
	}

	// The store is opened (reached, migrated) before the stack, so that a
	// typo costs seconds, not a run.
	var st *store.Store
	if uri := storeFrom(*storeURI); uri != "" {
		if st, err = store.Open(ctx, uri); err != nil {
			return err
		}
		defer st.Close()
	}

	var srv *reconcile.Server
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
	if err := srv.CheckOriginalRoles(ctx); err != nil { // the user's own server, measured as it is: said, not refused
		fmt.Fprintf(stderr, "warning: %v\n", err)
	}
	var duet *lab.Duet
	if e.Trials.Order == lab.OrderDuet {
		d, closeDuet, err := stackDuet(ctx, *dir, srv, url, e, stderr)
		if err != nil {
			return err
		}
		defer closeDuet()
		duet = d
	}
	if name == "ab" || e.Profile {
		reconcile.ServerTimingOn(ctx, e, srv.Binary(), stdout)
	}
	if st != nil {
		if err := store.RefuseMeasured(ctx, storeFrom(*storeURI), srv.AdminURI()); err != nil {
			return err
		}
	}

	res, err := runAndReport(ctx, session.Options{Experiment: e, Server: srv, Loader: loader(url), Duet: duet, Results: *results, Gate: gate.Decides(pf.rules),
		Note: func(run *lab.Run) {
			lab.NoteBinaries(run, e.Variants, binaryVersions(ctx, e), pf.git.repo, pf.binaries)
		}}, stdout)
	storeErr := putResult(ctx, st, res, stdout)
	if res != nil && *strict {
		if why := stats.Unreliable(res.Run); why != "" {
			err = errors.Join(err, fmt.Errorf("--strict: %s", why))
		}
	}
	return errors.Join(pf.finish(res, err, stdout), storeErr)
}

// putResult writes a finished (or interrupted) run to the store, after its
// result directory; its error says which directory to push later.
func putResult(ctx context.Context, st *store.Store, res *session.Result, stdout io.Writer) error {
	if st == nil || res == nil || res.Run == nil {
		return nil
	}
	ref := res.Dir
	if abs, err := filepath.Abs(res.Dir); err == nil && res.Dir != "" {
		ref = abs
	}
	// An interrupted run is stored too: its context is done, the store's is not.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	id, inserted, err := st.Put(ctx, res.Run, res.Verdicts, ref)
	if err != nil {
		later := "the run is not saved anywhere else"
		if res.Dir != "" {
			later = "the result directory is written: import it later with 'lab push " + res.Dir + "'"
		}
		return fmt.Errorf("the run was not written to the store: %w (%s)", err, later)
	}
	what := "stored as"
	if !inserted {
		what = "already stored as"
	}
	fmt.Fprintf(stdout, "store: %s %s\n", what, id[:12])
	return nil
}

// runAndReport runs the experiment through the session layer and prints
// what it does and its verdicts.
func runAndReport(ctx context.Context, o session.Options, stdout io.Writer) (*session.Result, error) {
	e := o.Experiment
	fmt.Fprintf(stdout, "%s: %s\n  %s x %s, %d..%d rounds of %s load (%s warm-up)\n",
		e.Name, e.Title, plural(len(e.Variants), "variant"), plural(len(e.Scenarios), "scenario"), e.Trials.Min, e.Trials.Max, e.Load.Duration, e.Load.Warmup)
	o.Progress, o.LabVersion = session.NewTermProgress(stdout), labVersion()
	res, err := session.Run(ctx, o)
	if res == nil {
		return nil, err
	}
	fmt.Fprintln(stdout)
	report.Terminal(stdout, res.Run, res.Verdicts)
	if res.Dir != "" {
		fmt.Fprintf(stdout, "\nreport: %s (report.md, report.html, run.json)\n", res.Dir)
	}
	return res, err
}

// loader is the load generator against url.
func loader(url string) *trial.Loader { return &trial.Loader{Target: loadgen.Target{URL: url}} }

// editFlags adds the overrides every command that runs experiments has.
func editFlags(fs *flag.FlagSet) *session.Edits {
	ed := &session.Edits{}
	fs.IntVar(&ed.MinTrials, "min-trials", 0, "override trials.min")
	fs.IntVar(&ed.MaxTrials, "max-trials", 0, "override trials.max")
	fs.BoolVar(&ed.PerLine, "per-line", false, "make each request of the targets file a scenario of its own, decided apart (as per_line = true)")
	fs.DurationVar(&ed.Duration, "duration", 0, "override load.duration")
	ed.Warmup = new(time.Duration) // -1 (the flag's default) keeps the file's
	fs.DurationVar(ed.Warmup, "warmup", -1, "override load.warmup")
	fs.Float64Var(&ed.MinRate, "min-rate", 0, "override load.limit.min_rate: where the capacity search starts, in req/s (models search and efficiency)")
	fs.Float64Var(&ed.MaxRate, "max-rate", 0, "override load.limit.max_rate: the highest rate the capacity search asks for (models search and efficiency)")
	fs.Float64Var(&ed.Price, "price", 0, "the host's price per hour (as [cost] hour = PRICE): the cost of a million requests at each limit")
	fs.Func("order", "override trials.order: interleaved, random or duet (both variants at once, on the local stack's target and its twin)", func(s string) error {
		o := lab.Order(s)
		if err := o.Valid(); err != nil {
			return err
		}
		ed.Order = o
		return nil
	})
	return ed
}

// loadExperiment loads an experiment to run through the session layer
// (edits, $(VAR)s, overrides, one validation with the requests); an
// invalid one is a usage error.
func loadExperiment(name string, ed session.Edits) (*lab.Experiment, error) {
	e, err := session.Load(experimentSource, name, ed, trial.CheckRequests)
	if errors.Is(err, session.ErrInvalid) {
		return nil, usageErrorf("%v", err)
	}
	return e, err
}
