package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// ErrInvalid marks an experiment that Load or Validate refused: the
// command line reports it as a usage error.
var ErrInvalid = errors.New("invalid experiment")

// RequestChecker checks, before any trial, that every request an
// experiment sends can be sent: targets files read (errors at file:line),
// {jwt} templates signable, writes that ask for tx=rollback honoured by
// every variant. loadgen/trial.CheckRequests is the one the lab uses.
type RequestChecker func(e *lab.Experiment) error

// Source is where experiments come from, the experiment file format:
// Read parses a bundled name or a file (checked where it is parsed, at
// file:line, PostgREST keys included), Expand resolves its $(VAR)s with
// lookup. The session imports no adapter: cmd/lab wires the experiments
// package in (experiments.LoadWith with the configs' key check,
// experiments.Expand).
type Source struct {
	Read   func(name string) (*lab.Experiment, error)
	Expand func(e *lab.Experiment, lookup func(string) (string, bool)) error
	// Lines reads a targets file's requests, for per_line
	// (loadgen/trial.TargetLines).
	Lines func(targetsFile string) ([]lab.TargetLine, error)
}

// Edits are what the command line changes in an experiment it loads.
type Edits struct {
	// Edit changes the experiment as read, before its $(VAR)s are
	// resolved (--binary, --scenarios: `lab run binaries --binary ...`
	// then needs no PGRST_RELEASE).
	Edit []func(*lab.Experiment) error
	// Lookup resolves $(VAR)s; nil is os.LookupEnv.
	Lookup func(string) (string, bool)

	MinTrials, MaxTrials int            // trials.min, trials.max (0 keeps the file's)
	Duration             time.Duration  // load.duration (0 keeps the file's; scales the [[action]]s' at and hold with it)
	Warmup               *time.Duration // load.warmup (nil keeps the file's)
	// Targets replays this targets file as the only scenario (--targets).
	Targets string
	// PerLine makes each of its requests a scenario of its own
	// (--per-line; per_line in the file).
	PerLine bool
	// Profile turns profiling on (--profile); the file may have it on too.
	Profile bool
	// Order overrides trials.order (--order; "" keeps the file's), e.g.
	// "duet" to serve both variants at once.
	Order lab.Order
	// MinRate and MaxRate override load.limit.min_rate and max_rate (0
	// keeps the file's): where a capacity search starts and the highest
	// rate it asks for (models search and efficiency only). Both at R
	// measure R in one step and search below it only if R fails.
	MinRate, MaxRate float64
	// Price is the host's price per hour (--price; [cost] hour, 0 keeps
	// the file's): the limits table's cost of a million requests.
	Price float64
	// OwnCores is the CPUs of the host that runs both the server and the
	// load generator (0: another host generates the load, an agent's):
	// a capacity figure then gives each cores of its own
	// (lab.Experiment.OwnCores).
	OwnCores int
}

// Load reads an experiment from src (a bundled name or a file; the file
// itself is checked where it is parsed, at file:line), applies the edits,
// resolves its $(VAR)s and the overrides, and validates what will run
// once, with Validate.
func Load(src Source, name string, ed Edits, rc RequestChecker) (*lab.Experiment, error) {
	e, err := src.Read(name)
	if err != nil {
		return nil, err
	}
	for _, edit := range ed.Edit {
		if err := edit(e); err != nil {
			return nil, err
		}
	}
	lookup := ed.Lookup
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if err := src.Expand(e, lookup); err != nil {
		return nil, err
	}
	if err := ed.apply(e); err != nil {
		return nil, err
	}
	if err := splitLines(src, e); err != nil {
		return nil, err
	}
	if err := Validate(e, rc); err != nil {
		return nil, err
	}
	return e, nil
}

// splitLines makes each request of a per_line experiment's targets file
// a scenario of its own (lab.Experiment.SplitTargets).
func splitLines(src Source, e *lab.Experiment) error {
	if !e.PerLine {
		return nil
	}
	if e.Targets == "" {
		return fmt.Errorf("%w %s: per_line splits a targets file, and it replays none (set targets, or give --targets FILE)", ErrInvalid, e.Name)
	}
	if src.Lines == nil {
		return fmt.Errorf("%s: per_line: this source reads no targets files", e.Name)
	}
	lines, err := src.Lines(e.Targets)
	if err != nil {
		return fmt.Errorf("%w %s: per_line: %w", ErrInvalid, e.Name, err)
	}
	if err := e.SplitTargets(lines); err != nil {
		return fmt.Errorf("%w %s: %w", ErrInvalid, e.Name, err)
	}
	return nil
}

// apply sets the overrides.
func (ed Edits) apply(e *lab.Experiment) error {
	if ed.MinTrials > 0 {
		e.Trials.Min = ed.MinTrials
		if e.Trials.Max < ed.MinTrials {
			e.Trials.Max = ed.MinTrials
		}
	}
	if ed.MaxTrials > 0 {
		e.Trials.Max = ed.MaxTrials
	}
	if ed.Duration > 0 {
		e.ScaleActions(ed.Duration)
		e.Load.Duration = ed.Duration
	}
	if ed.Warmup != nil && *ed.Warmup >= 0 {
		e.Load.Warmup = *ed.Warmup
	}
	if ed.Targets != "" {
		// The command line may name a link; the run reads the resolved
		// path without following links (loadgen.ReadFileBounded).
		abs, err := filepath.Abs(ed.Targets)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return fmt.Errorf("--targets: %w", err)
		}
		e.UseTargets(abs, true)
	}
	if ed.MinRate != 0 || ed.MaxRate != 0 {
		if m := e.Load.Model; !m.SearchesCapacity() {
			return fmt.Errorf("%w %s: --min-rate and --max-rate bound a capacity search, and load.model %q searches none (only %q and %q do)",
				ErrInvalid, e.Name, m, lab.ModelSearch, lab.ModelEfficiency)
		}
		if ed.MinRate != 0 {
			e.Load.Limit.MinRate = ed.MinRate
		}
		if ed.MaxRate != 0 {
			e.Load.Limit.MaxRate = ed.MaxRate
		}
	}
	if ed.Price != 0 {
		e.Cost.Hour = ed.Price // Validate checks it (lab.Cost.Check)
	}
	e.OwnCores(ed.OwnCores)
	e.PerLine = e.PerLine || ed.PerLine
	e.Profile = e.Profile || ed.Profile
	if ed.Order != "" {
		e.Trials.Order = ed.Order
	} else if ed.Profile && e.Trials.Order == lab.OrderDuet {
		// A profile is of one target: --profile on a duet experiment
		// (socket-vs-tcp) runs it interleaved; --order duet --profile is
		// refused by Validate.
		e.Trials.Order = lab.OrderInterleaved
	}
	return nil
}

// Validate is the one validation of an experiment that is about to run,
// after every edit: the model (lab.Experiment.Validate) and, with rc, the
// requests. Its errors wrap ErrInvalid.
func Validate(e *lab.Experiment, rc RequestChecker) error {
	if errs := e.Validate(); len(errs) > 0 {
		return fmt.Errorf("%w %s: %w", ErrInvalid, e.Name, errors.Join(errs...))
	}
	if rc != nil {
		if err := rc(e); err != nil {
			return fmt.Errorf("%w %s: %w", ErrInvalid, e.Name, err)
		}
	}
	return nil
}
