package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
)

func init() {
	register(command{name: "calibrate", summary: "measure false positives and detection rate per effect size (a power curve)", run: cmdCalibrate})
}

const calibrateUsage = `calibrate [NAME|FILE] [--runs N] [--aa-runs N] [--effects 1,2,3x10,5,10] [flags]
       calibrate --merge DIR DIR...

Measures how sensitive an experiment's design is on this machine, against
the local stack's target. It repeats A/A runs (the experiment's baseline
variant against itself, on its first scenario; --aa-runs times) and A/A'
runs in which A' (variant A-prime) carries injected CPU work per request
sized to change the primary metric by each of --effects percent (--runs
times each; "3x10" gives 3% ten runs). --inject server (the default on
postgrest-mini) spins in its handler (PGRST_LAB_INJECT_CPU_US); --inject
database (the default on real PostgREST) has A and A' both call a
db-pre-request function in the stack's database that spins in PostgreSQL,
for A' only. The first A/A run sizes the injection from a model of the
load; then a probe (A/A' at the largest effect, not counted) measures what
that realises and every injection is corrected by it, so that "3%" is 3%
of the headline metric (--size=false skips the probe); the others are
interleaved (A/A, 1%, 2%, ..., A/A, 1%, ...) so that the machine's drift
hits every effect alike. It reports the false-positive rate, and the
detection rate per effect (a power curve), as a table, calibration.md and
calibration.html (with a chart) under RESULTS/calibrate/<experiment>/<time>/.
Default experiment: socket-vs-tcp. Each run is bounded by trials.max; the
command prints the worst-case time first and one line per finished run;
Ctrl-C writes the report of the runs done so far.

With --designs interleaved,duet it compares trial orders on this machine:
every planned run runs once per design, alternately, each design is
tallied apart, and the report compares their MDE per minute of run time
(from the A/A runs). "duet" serves both variants at once, on the stack's
target and its twin (trials.order = "duet"); --order duet calibrates that
design alone.

With --merge, it runs nothing: it pools calibrations of one design (the
same experiment, test, load, trials and injection), e.g. a series counted
over several sessions, into one table and report under
RESULTS/calibrate/<experiment>/<time>-merged/. Each part keeps the
injection sizes its own machine measured.`

func cmdCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("calibrate", calibrateUsage, stdout)
	dir := fs.String("dir", stack.DefaultDir, "state directory of the local stack")
	results := fs.String("results", "results", "where result directories are written")
	runs := fs.Int("runs", 5, fmt.Sprintf("runs per effect size (1..%d)", calibrate.MaxRuns))
	aaRuns := fs.Int("aa-runs", 0, "A/A runs (default: --runs; at least 1, which sizes the injection)")
	inject := fs.String("inject", "", "where A' spins: server (postgrest-mini's handler) or database (a pre-request function, any target); default: server on postgrest-mini, else database")
	effectsFlag := fs.String("effects", "1,2,3,5,10", "injected slowdowns in percent, comma-separated (each in (0, 50]; 3x10: ten runs of 3%)")
	size := fs.Bool("size", true, "size the injections by a probe run (A/A' at the largest effect, not counted) before the counted runs")
	merge := fs.Bool("merge", false, "pool the calibrations in the directories given instead of running one")
	designsFlag := fs.String("designs", "", "compare trial orders, e.g. interleaved,duet: every run once per design, alternately, each tallied apart with its MDE per minute")
	ed := editFlags(fs)
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if *merge {
		if len(pos) < 2 {
			return usageErrorf("calibrate --merge: give two or more calibration directories (RESULTS/calibrate/<experiment>/<time>)")
		}
		_, err := session.MergeCalibrations(pos, *results, stdout)
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
	designs, err := parseDesigns(*designsFlag)
	if err != nil {
		return usageErrorf("calibrate: --designs: %v", err)
	}
	e, err := loadExperiment(name, *ed)
	if err != nil {
		return err
	}
	if e.Target.Unit != "" || e.Target.Config != "" || e.Target.URL != "" {
		return usageErrorf("calibrate: %s targets an existing server; calibration injects work into the local stack only", e.Name)
	}
	se := calibrate.Derive(e, calibrate.InjectServer, 0)
	if slices.Contains(designs, lab.OrderDuet) {
		// Half a names its backends in every design, so that each design
		// measures the same database CPU: its target's backends'.
		se.Trials.Order = lab.OrderDuet
	}
	srv, url, closeFn, err := stackServer(ctx, *dir, "", se, stderr)
	if err != nil {
		return err
	}
	defer closeFn()
	var duet *lab.Duet
	if e.Trials.Order == lab.OrderDuet || slices.Contains(designs, lab.OrderDuet) {
		d, closeDuet, err := stackDuet(ctx, *dir, srv, url, e, stderr)
		if err != nil {
			return err
		}
		defer closeDuet()
		duet = d
	}
	_, target, err := srv.Describe(ctx)
	if err != nil {
		return err
	}
	inj, err := calibrate.ParseInjection(*inject, target.Reference)
	if err != nil {
		return usageErrorf("calibrate: %v", err)
	}
	c := &session.Calibration{Experiment: e, Server: srv, Loader: loader(url), Duet: duet, Designs: designs, Out: stdout, AARuns: *aaRuns, Effects: effects,
		Inject: inj, Results: *results, LabVersion: labVersion(), Size: *size}
	if inj == calibrate.InjectDatabase {
		b, err := reconcile.NewBurner(ctx, srv.AdminURI())
		if err != nil {
			return err
		}
		defer b.Close()
		c.Burner = b
		fmt.Fprintf(stdout, "injecting in PostgreSQL: a pre-request function spins %.4f µs a loop iteration\n", b.UsPerIteration())
	}
	return c.Run(ctx)
}

// parseDesigns reads --designs: two or more distinct trial orders.
func parseDesigns(s string) ([]lab.Order, error) {
	if s == "" {
		return nil, nil
	}
	var ds []lab.Order
	for _, f := range strings.Split(s, ",") {
		o := lab.Order(strings.TrimSpace(f))
		if err := o.Valid(); err != nil {
			return nil, err
		}
		if slices.Contains(ds, o) {
			return nil, fmt.Errorf("%q is listed twice", o)
		}
		ds = append(ds, o)
	}
	if len(ds) < 2 {
		return nil, fmt.Errorf("%q: name two designs or more to compare (e.g. interleaved,duet); --order runs one", s)
	}
	return ds, nil
}
