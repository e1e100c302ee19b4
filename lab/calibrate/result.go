package calibrate

import (
	"encoding/json"
	"math"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Result is a whole calibration: what was run, on what, and the tally.
type Result struct {
	Experiment string         `json:"experiment"`
	Design     string         `json:"design"` // the verdicts' method, as reports say it
	Load       lab.Load       `json:"load"`
	Trials     lab.Trials     `json:"trials"`
	Host       lab.Host       `json:"host"`
	Target     lab.TargetInfo `json:"target"`
	Started    time.Time      `json:"started"`
	Finished   time.Time      `json:"finished"`
	AARuns     int            `json:"aa_runs"`
	Effects    []Effect       `json:"effects"` // as planned; Rows count what ran
	Injection  Injection      `json:"injection"`
	// BurnUsPerIteration is the database injection's cost of one loop
	// iteration (µs), measured at the start.
	BurnUsPerIteration float64   `json:"burn_us_per_iteration,omitempty"`
	Baseline           Baseline  `json:"baseline"`
	Rows               []Row     `json:"rows"`
	Outcomes           []Outcome `json:"outcomes"`
	// Stopped is set when the calibration ended early (Ctrl-C, an error).
	Stopped string `json:"stopped,omitempty"`
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
