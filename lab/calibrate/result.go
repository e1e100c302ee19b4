package calibrate

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// Result is a whole calibration: what was run, on what, and the tally.
// It is written as calibration.json (resultJSON).
type Result struct {
	Experiment string
	Design     string // the verdicts' method, as reports say it
	Load       lab.Load
	Trials     lab.Trials
	Host       lab.Host
	Target     lab.TargetInfo
	Started    time.Time
	Finished   time.Time
	AARuns     int
	Effects    []Effect // as planned; Rows count what ran
	Injection  Injection
	// BurnUsPerIteration is the database injection's cost of one loop
	// iteration (µs), measured at the start.
	BurnUsPerIteration float64
	Baseline           Baseline
	// Sizing is the probe run's correction of the injections (nil
	// without one: no effects, or sizing off).
	Sizing   *Sizing
	Rows     []Row
	Outcomes []Outcome
	// Stopped is set when the calibration ended early (Ctrl-C, an error).
	Stopped string
	// Sources are the calibrations a merged one pools (Merge), nil for
	// one that ran.
	Sources []Source
}

// resultJSON is calibration.json: Result with the experiment's settings,
// the host and the target as run.json records them.
type resultJSON struct {
	Experiment         string              `json:"experiment"`
	Design             string              `json:"design"`
	Load               record.LoadV1       `json:"load"`
	Trials             record.TrialsV1     `json:"trials"`
	Host               record.HostV1       `json:"host"`
	Target             record.TargetInfoV1 `json:"target"`
	Started            time.Time           `json:"started"`
	Finished           time.Time           `json:"finished"`
	AARuns             int                 `json:"aa_runs"`
	Effects            []Effect            `json:"effects"`
	Injection          Injection           `json:"injection"`
	BurnUsPerIteration float64             `json:"burn_us_per_iteration,omitempty"`
	Baseline           Baseline            `json:"baseline"`
	Sizing             *Sizing             `json:"sizing,omitempty"`
	Rows               []Row               `json:"rows"`
	Outcomes           []Outcome           `json:"outcomes"`
	Stopped            string              `json:"stopped,omitempty"`
	Sources            []Source            `json:"sources,omitempty"`
}

// MarshalJSON writes calibration.json.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultJSON{
		Experiment: r.Experiment, Design: r.Design, Load: r.Load, Trials: r.Trials,
		Host: record.FromHost(r.Host), Target: record.FromTargetInfo(r.Target), Started: r.Started, Finished: r.Finished,
		AARuns: r.AARuns, Effects: r.Effects, Injection: r.Injection, BurnUsPerIteration: r.BurnUsPerIteration,
		Baseline: r.Baseline, Sizing: r.Sizing, Rows: r.Rows, Outcomes: r.Outcomes, Stopped: r.Stopped, Sources: r.Sources,
	})
}

// UnmarshalJSON reads calibration.json.
func (r *Result) UnmarshalJSON(b []byte) error {
	var j resultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Result{
		Experiment: j.Experiment, Design: j.Design, Load: j.Load, Trials: j.Trials,
		Host: j.Host.Host(), Target: j.Target.TargetInfo(), Started: j.Started, Finished: j.Finished,
		AARuns: j.AARuns, Effects: j.Effects, Injection: j.Injection, BurnUsPerIteration: j.BurnUsPerIteration,
		Baseline: j.Baseline, Sizing: j.Sizing, Rows: j.Rows, Outcomes: j.Outcomes, Stopped: j.Stopped, Sources: j.Sources,
	}
	return nil
}

// MarshalJSON writes unknown numbers (NaN, ±Inf) as null.
func (o Outcome) MarshalJSON() ([]byte, error) {
	type plain Outcome
	return json.Marshal(struct {
		plain
		DeltaPct *float64 `json:"delta_pct"`
		MDEPct   *float64 `json:"mde_pct"`
	}{plain(o), finite(o.DeltaPct), finite(o.MDEPct)})
}

// MarshalJSON writes unknown numbers (NaN, ±Inf) as null.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	return json.Marshal(struct {
		plain
		MeanPct  *float64 `json:"measured_change_pct"`
		MeanMDE  *float64 `json:"mean_mde_pct"`
		MeanRnds *float64 `json:"mean_rounds"`
		MeanTook *float64 `json:"mean_minutes"`
	}{plain(r), finite(r.MeanPct), finite(r.MeanMDE), finite(r.MeanRnds), finite(r.MeanTook)})
}

func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// File is the name of a calibration's result in its directory.
const File = "calibration.json"

// ReadDir reads the calibration written to dir.
func ReadDir(dir string) (*Result, error) {
	b, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		return nil, fmt.Errorf("calibration %s: %w", dir, err)
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("calibration %s: %s: %w", dir, File, err)
	}
	if r.Experiment == "" {
		return nil, fmt.Errorf("calibration %s: %s names no experiment", dir, File)
	}
	return &r, nil
}
