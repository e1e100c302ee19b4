package bisect

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/internal/didyoumean"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The variants of a step's run: GOOD's build is the baseline.
const (
	VariantGood = "good"
	VariantMid  = "mid"
	VariantBad  = "bad"
)

// DefaultMinRounds and DefaultMaxRounds are a step's rounds when the
// experiment's own cannot reach a verdict (stats.Reach), as the bundled
// track experiment's five fixed rounds cannot: with the sequential design
// over 6..12 a large change is decided after about 8 rounds.
const DefaultMinRounds, DefaultMaxRounds = 6, 12

// ThreeVariants is the edit (session.Edits.Edit) that makes an
// experiment a step's: its variants GOOD's, the midpoint's and BAD's
// builds (each with the file's baseline settings; RunMeasurer sets their
// binaries), its rounds DefaultMinRounds..DefaultMaxRounds when its own
// cannot reach a verdict, and the three in a random order each round
// (randomised blocks) instead of a fixed one: in a fixed order the trial
// after BAD's carried some of its load, and the midpoint, always second,
// came out 12-20 % cheaper than GOOD at GOOD's level in every run on a busy
// machine. The experiment must have one scenario: a step decides on one.
func ThreeVariants(e *lab.Experiment) error {
	if n := len(e.Scenarios) + len(e.Custom); n != 1 {
		return fmt.Errorf("experiment %s has %d scenarios: a bisect step decides on one; give an experiment of one scenario (track is GETSingle)", e.Name, n)
	}
	if err := e.UseBinaries([]lab.Binary{{Name: VariantGood}, {Name: VariantMid}, {Name: VariantBad}}); err != nil {
		return err
	}
	if stats.Reach(e) != "" {
		e.Trials.Min, e.Trials.Max = max(e.Trials.Min, DefaultMinRounds), max(e.Trials.Max, DefaultMaxRounds)
	}
	if e.Trials.Order == "" || e.Trials.Order == lab.OrderInterleaved {
		e.Trials.Order = lab.OrderRandom
	}
	return nil
}

// Runner runs e, its variants set to bins, with stop as the run loop's
// stop rule (lab.Runner.Decided), and returns the run and its result
// directory: session.Run, as cmd/lab wires it.
type Runner func(ctx context.Context, e *lab.Experiment, bins []lab.Binary, stop func(*lab.Run) bool) (run *lab.Run, dir string, err error)

// RunMeasurer measures a step with run: e (made by ThreeVariants) with
// the three builds, interleaved, stopped as soon as Decide settles (after
// trials.min rounds) or at trials.max, then compared on metric.
func RunMeasurer(e *lab.Experiment, metric lab.Metric, run Runner) Measurer {
	return func(ctx context.Context, good, mid, bad Built) (Measurement, error) {
		bins := []lab.Binary{binary(VariantGood, good), binary(VariantMid, mid), binary(VariantBad, bad)}
		if err := e.UseBinaries(bins); err != nil {
			return Measurement{}, err
		}
		stop := func(r *lab.Run) bool {
			_, settled := Decide(Compare(r, metric), false)
			return settled
		}
		r, dir, err := run(ctx, e, bins, stop)
		if err != nil || r == nil {
			return Measurement{Dir: dir}, err
		}
		return Measurement{Comparisons: Compare(r, metric), Rounds: stats.Rounds(r), Dir: dir}, nil
	}
}

// binary is a step's variant of a build.
func binary(name string, b Built) lab.Binary {
	return lab.Binary{Name: name, Path: b.Path, Ref: b.Commit.SHA, Commit: b.Commit.SHA, Command: b.Command}
}

// Compare is a step's comparisons of metric in the run's scenario, each
// tested as the run's design says (paired by round, sequential).
func Compare(run *lab.Run, metric lab.Metric) Comparisons {
	row := func(base, variant string) stats.Row {
		for _, r := range stats.CompareWith(run, 0, base, variant).Rows {
			if r.Metric.Name == metric.Name {
				return r
			}
		}
		return stats.Row{BaselineName: base, VariantName: variant}
	}
	return Comparisons{VsGood: row(VariantGood, VariantMid), VsBad: row(VariantBad, VariantMid), Ends: row(VariantGood, VariantBad)}
}

// MetricNamed is the metric a search decides on (--metric), or an error
// that names the closest one and the usual ones.
func MetricNamed(name string) (lab.Metric, error) {
	if m, ok := lab.MetricByName(name); ok {
		return m, nil
	}
	names := make([]string, len(lab.Metrics))
	for i, m := range lab.Metrics {
		names[i] = m.Name
	}
	hint := ""
	if d := didyoumean.Suggest(name, names); d != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", d)
	}
	return lab.Metric{}, fmt.Errorf("--metric %q: no such metric%s; e.g. cpu (server + database CPU per request, the default), server_cpu, db_cpu, rate, p50, p99", name, hint)
}
