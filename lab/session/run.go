package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Options are one run of an experiment against one server side.
type Options struct {
	Experiment *lab.Experiment // from Load (or validated with Validate)
	Server     lab.Server
	Loader     lab.Loader
	// Duet is the two halves of a duet run (trials.order = "duet"): half a
	// is Server and Loader, half b the stack's twin.
	Duet     *lab.Duet
	Progress lab.Progress // nil: none
	// Decided is the stop rule; nil is stats.DecidedFunc (stop once every
	// comparison is decided, after trials.min, and measure a limits run's
	// scenario no more once its interval is settled: stats.SettledFunc).
	// lab.FixedRounds runs trials.max rounds of everything.
	Decided func(*lab.Run) bool
	// Gate, with the default stop rule, is a further condition of it: the
	// run goes on (up to trials.max) until Gate holds too, e.g. until every
	// rule of `--gate` can decide (gate.Decides). nil: none.
	Gate func(*lab.Run) bool
	// Results is where the result directory is written
	// (Results/<experiment>/<stamp>/); "" writes none.
	Results string
	// LabVersion goes into the record (run.Host.LabVersion).
	LabVersion string
	// Note adds to the record after the run and before it is written (an
	// agent's clock, the binaries' versions).
	Note func(*lab.Run)
}

// Result is a finished (or interrupted) run: its record, its verdicts,
// computed once, and the directory it was written to.
type Result struct {
	Run      *lab.Run
	Verdicts *stats.Verdicts
	Dir      string // "" when nothing was written
}

// Runner is the lab.Runner of o, with the stop rule as its default.
func (o Options) Runner() *lab.Runner {
	r := &lab.Runner{Server: o.Server, Loader: o.Loader, Duet: o.Duet, Progress: o.Progress, Decided: o.Decided}
	if r.Decided == nil {
		// The adaptive design: stop once decided; a limits run's scenarios
		// stop one by one as their intervals settle.
		r.Decided, r.Settled = stats.DecidedFunc, stats.SettledFunc
		if g := o.Gate; g != nil {
			r.Decided = func(run *lab.Run) bool { return stats.DecidedFunc(run) && g(run) }
		}
	}
	return r
}

// Run runs the experiment, computes its verdicts and writes its result
// directory. A run that fails or is interrupted still returns (and writes)
// what it measured, with the run's error; a run that measured nothing
// returns a nil Result. A run that is no result (lab.Run.NoResult: a
// variant without a valid trial on a scenario) is written and returned
// with that error. A panic (a bug) in computing the verdicts or
// writing the directory comes back as a *lab.InternalError; one in the run
// itself lab.Runner recovers, after restoring the server.
func Run(ctx context.Context, o Options) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errors.Join(err, lab.NewInternalError("writing the result", p))
		}
	}()
	run, runErr := o.Runner().Run(ctx, o.Experiment)
	if run == nil {
		return nil, runErr
	}
	run.Host.LabVersion = o.LabVersion
	if o.Note != nil {
		o.Note(run)
	}
	identify(run)
	res = &Result{Run: run, Verdicts: stats.Compare(run, 0)}
	if runErr == nil {
		runErr = run.NoResult()
	}
	if o.Results == "" {
		return res, runErr
	}
	dir, err := WriteResult(ResultDir(o.Results, run.Experiment.Name, run.Started), res)
	res.Dir = dir
	if err != nil {
		return res, errors.Join(runErr, err)
	}
	return res, runErr
}

// WriteResult writes a result directory atomically: run.json and every
// report of report.WriteAll. It returns the directory's name (dir, or
// dir-2... when dir exists).
func WriteResult(dir string, res *Result) (string, error) {
	return writeDir(dir, func(tmp string) error {
		if err := record.Write(tmp, res.Run); err != nil {
			return err
		}
		if err := report.WriteAll(tmp, res.Run, res.Verdicts); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		return nil
	})
}
