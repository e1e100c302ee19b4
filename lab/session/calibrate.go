package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	calibrationreport "github.com/pgrst-lab/pgrst-lab/lab/report/calibration"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Burner is the database injection of a calibration (calibrate
// --inject database): A′'s pre-request function, sized to spin a number
// of microseconds. host/reconcile.Burner is one.
type Burner interface {
	// Set makes A′'s pre-request spin about us microseconds.
	Set(ctx context.Context, us int) error
	// UsPerIteration is the measured cost of one loop iteration.
	UsPerIteration() float64
}

// Calibration is one `lab calibrate`: A/A runs and A/A′ runs per effect,
// interleaved, against one server side.
type Calibration struct {
	Experiment *lab.Experiment // validated; its baseline and first scenario are used
	Server     lab.Server
	Loader     lab.Loader
	Duet       *lab.Duet // a duet design's two halves (half a: Server, Loader)
	Out        io.Writer // one line per trial and per run, then the table
	AARuns     int
	Effects    []calibrate.Effect
	Inject     calibrate.Injection
	Burner     Burner // InjectDatabase only
	Results    string // RESULTS/calibrate/<experiment>/<stamp>/
	LabVersion string
	// Size runs a probe (A/A′ at the largest effect, not tallied) after
	// the first A/A run and corrects every injection by what it realised
	// (calibrate.Sizing).
	Size bool
	// Designs, when it names two or more trial orders (e.g. interleaved
	// and duet), runs every planned run once per design, alternately, and
	// tallies each design apart, with their MDE per minute compared
	// (calibrate.Designs). The first design's first A/A run and probe size
	// the injection for all. Nil runs the experiment's own design.
	Designs []lab.Order

	dir         string
	done, total int
}

// Run runs the calibration: the first A/A run sizes the injection (and,
// with Size, a probe at the largest effect corrects it), the others are
// interleaved (A/A, 1%, 2%, ..., A/A, 1%, ...) so that the
// machine's drift hits every effect alike. It writes calibration.md,
// .html and .json and each run's run.json; after Ctrl-C, the report of
// the runs done so far (the interrupted run left out of the tally).
func (c *Calibration) Run(ctx context.Context) error {
	e := c.Experiment
	if err := calibrate.CheckHeadline(e); err != nil {
		return err
	}
	start := time.Now()
	c.dir = filepath.Join(c.Results, "calibrate", e.Name, Stamp(start))
	plan := calibrate.Schedule(c.AARuns, c.Effects)
	designs := c.Designs
	if len(designs) < 2 {
		designs = []lab.Order{""} // the experiment's own
	}
	c.total = len(plan) * len(designs)
	planText := calibrate.PlanText(c.AARuns, c.Effects)
	if len(designs) > 1 {
		planText += fmt.Sprintf(" for each of %d designs (%s), alternately", len(designs), orders(designs))
	}
	probe := c.Size && len(c.Effects) > 0 && c.AARuns > 0
	if probe {
		c.total++
		planText += ", a sizing probe"
	}
	perTrial := e.Load.Warmup + e.Load.Duration + stats.DefaultTrialOverhead
	worst := time.Duration(c.total*2*e.Trials.Max) * perTrial
	if len(designs) > 1 || e.Trials.Order == lab.OrderDuet {
		worst = 0 // a duet's round runs one load, not two
		for _, d := range designs {
			loads := 2
			if d == lab.OrderDuet || (d == "" && e.Trials.Order == lab.OrderDuet) {
				loads = 1
			}
			worst += time.Duration(c.total/len(designs)*loads*e.Trials.Max) * perTrial
		}
	}
	fmt.Fprintf(c.Out, "calibrate %s: %d runs (%s) of 2 variants x %d..%d rounds of %s; at most about %s\n",
		e.Name, c.total, planText, e.Trials.Min, e.Trials.Max, e.Load.Duration, worst.Round(time.Second))
	res := &calibrate.Result{Experiment: e.Name, Load: e.Load, Trials: e.Trials, Started: start, AARuns: c.AARuns, Effects: c.Effects, Injection: c.Inject}
	if c.Burner != nil {
		res.BurnUsPerIteration = c.Burner.UsPerIteration()
	}
	finish := func(stopped error) error {
		res.Finished = time.Now()
		res.Rows = calibrate.Tally(res.Outcomes)
		if stopped != nil {
			res.Stopped = stopped.Error()
		}
		fmt.Fprintln(c.Out)
		calibrationreport.Text(c.Out, res)
		if err := calibrationreport.Write(c.dir, res); err != nil {
			return errors.Join(stopped, err)
		}
		fmt.Fprintf(c.Out, "\nreport: %s (calibration.md, calibration.html, calibration.json; runs/*/run.json)\n", c.dir)
		return stopped
	}
	for k, p := range plan {
		us := 0
		if p.Effect > 0 {
			us = calibrate.InjectUs(p.Effect, res.Baseline)
		}
		for j := range designs {
			d := designs[j]
			if k%2 == 1 { // neither design always first
				d = designs[len(designs)-1-j]
			}
			if p.Effect == 0 && p.N == 1 {
				d = designs[j] // the first design's first A/A run sizes the injection
			}
			r, o, err := c.one(ctx, d, p.Effect, us, p.N)
			if r != nil && res.Design == "" {
				res.Host, res.Target, res.Design = r.Run.Host, r.Run.Target, r.Verdicts.DesignMethod()
			}
			if ctx.Err() != nil {
				// Ctrl-C: this run's verdict is not final, so it stays out of the tally.
				return finish(fmt.Errorf("interrupted in run %d of %d (left out of the tally): %w", c.done, c.total, ctx.Err()))
			}
			res.Outcomes = append(res.Outcomes, o)
			if err != nil {
				return finish(err)
			}
			fmt.Fprintf(c.Out, "    so far%s: %s\n", designSuffix(d), calibrate.SoFar(ofDesign(res.Outcomes, d), p.Effect))
			if probe && p.Effect > 0 && res.Sizing != nil {
				c.refit(res)
			}
			if p.Effect != 0 || p.N != 1 || j != 0 || len(c.Effects) == 0 {
				continue
			}
			b, ok := calibrate.BaselineOf(r.Run)
			if !ok {
				return finish(errors.New("the first A/A run measured no throughput: cannot size the injected work"))
			}
			res.Baseline = b
			if probe {
				if err := c.probe(ctx, designs[0], res); err != nil {
					return finish(err)
				}
			}
		}
	}
	return finish(nil)
}

func ofDesign(outs []calibrate.Outcome, d lab.Order) []calibrate.Outcome {
	var own []calibrate.Outcome
	for _, o := range outs {
		if o.Design == d {
			own = append(own, o)
		}
	}
	return own
}

func designSuffix(d lab.Order) string {
	if d == "" {
		return ""
	}
	return " (" + string(d) + ")"
}

func orders(ds []lab.Order) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = string(d)
	}
	return strings.Join(names, ", ")
}

// probe runs A/A′ at the largest effect, as modelled, and scales every
// injection by what it realised; the run is kept in runs/ but not tallied.
func (c *Calibration) probe(ctx context.Context, design lab.Order, res *calibrate.Result) error {
	eff := c.largestEffect()
	us := calibrate.InjectUs(eff, res.Baseline)
	_, o, err := c.one(ctx, design, eff, us, 1, "probe ")
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted in the sizing probe: %w", ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("the sizing probe: %w", err)
	}
	better := lab.PrimaryMetric(c.Experiment).Better
	s := calibrate.SizeFrom(o, better)
	res.Sizing, res.Baseline.Scale = &s, s.Scale
	fmt.Fprintf(c.Out, "    %s\n", s)
	return nil
}

// largestEffect is the largest effect planned, in percent: the probe's.
func (c *Calibration) largestEffect() float64 {
	eff := 0.0
	for _, e := range c.Effects {
		eff = max(eff, e.Pct)
	}
	return eff
}

// refit sizes the next injections from every effect run so far, the
// probe's included (calibrate.Refit), and says so when the correction
// moved by 2 % or more.
func (c *Calibration) refit(res *calibrate.Result) {
	was := res.Sizing.Scale
	better := lab.PrimaryMetric(c.Experiment).Better
	s := calibrate.Refit(*res.Sizing, res.Outcomes, better, calibrate.ModelUsPerPct(c.largestEffect(), res.Baseline))
	res.Sizing, res.Baseline.Scale = &s, s.Scale
	if math.Abs(s.Scale-was) >= 0.02*was {
		fmt.Fprintf(c.Out, "    %s\n", s)
	}
}

// one runs one calibration run with design (its trial order; "" keeps
// the experiment's), effect percent as us of injected work, its number i;
// kind prefixes the label ("probe ").
func (c *Calibration) one(ctx context.Context, design lab.Order, effect float64, us, i int, kind ...string) (*Result, calibrate.Outcome, error) {
	c.done++
	label := "A/A"
	if effect > 0 {
		label = fmt.Sprintf("%s%g%% (%d µs)", strings.Join(kind, ""), effect, us)
	}
	if design != "" {
		label = string(design) + " " + label
	}
	if c.Burner != nil {
		if err := c.Burner.Set(ctx, us); err != nil {
			return nil, calibrate.Outcome{EffectPct: effect, InjectUs: us, Error: err.Error()}, err
		}
	}
	e := calibrate.Derive(c.Experiment, c.Inject, us)
	if design != "" {
		e.Trials.Order = design
	}
	o := Options{Experiment: e, Server: c.Server, Loader: c.Loader, Duet: c.Duet,
		Progress:   &calibrationProgress{w: c.Out, prefix: fmt.Sprintf("  [%d/%d] %s #%d", c.done, c.total, label, i)},
		LabVersion: c.LabVersion}
	r, err := Run(ctx, o)
	if r == nil {
		return nil, calibrate.Outcome{EffectPct: effect, InjectUs: us, Error: fmt.Sprint(err)}, err
	}
	out := calibrate.OutcomeOf(r.Run, r.Verdicts, effect, us)
	out.Design = design
	out.Dir = filepath.Join("runs", fmt.Sprintf("%02d-%s-%d", c.done, strings.NewReplacer("%", "pct", " ", "", "(", "", ")", "", "/", "", "µ", "u").Replace(label), i))
	if werr := record.Write(filepath.Join(c.dir, out.Dir), r.Run); werr != nil {
		err = errors.Join(err, werr)
	}
	verdict := "~"
	if out.Significant {
		verdict = string(out.Outcome)
	}
	fmt.Fprintf(c.Out, "[%d/%d] %s #%d: %s, change %+.1f%%, p=%.3f (%s), %d rounds, %s\n", c.done, c.total, label, i,
		verdict, out.DeltaPct, out.P, out.Test, out.Rounds, out.Took.Round(time.Second))
	return r, out, err
}

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

// MergeCalibrations pools the calibrations written to dirs (one design,
// counted over several sessions: calibrate.Merge), prints the pooled
// table and writes the merged report to
// RESULTS/calibrate/<experiment>/<stamp>-merged/, which it returns.
func MergeCalibrations(dirs []string, results string, out io.Writer) (string, error) {
	seen := map[string]string{}
	var parts []calibrate.Part
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", err
		}
		if prev, ok := seen[abs]; ok {
			return "", fmt.Errorf("merge: %s is named twice (also as %s)", d, prev)
		}
		seen[abs] = d
		r, err := calibrate.ReadDir(d)
		if err != nil {
			return "", err
		}
		parts = append(parts, calibrate.Part{Dir: abs, Res: r})
	}
	m, err := calibrate.Merge(parts)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(results, "calibrate", m.Experiment, Stamp(time.Now())+"-merged")
	fmt.Fprintf(out, "%s: %d calibrations, %d runs\n\n", m.Experiment, len(parts), len(m.Outcomes))
	calibrationreport.Text(out, m)
	if err := calibrationreport.Write(dir, m); err != nil {
		return "", err
	}
	fmt.Fprintf(out, "\nreport: %s (calibration.md, calibration.html, calibration.json)\n", dir)
	return dir, nil
}
