package calibrate

import (
	"fmt"
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// DesignRow compares one design's sensitivity per minute of run time,
// from its A/A runs: a design that halves the scatter of the per-round
// ratios but takes four times as long per round gains nothing.
type DesignRow struct {
	Design lab.Order `json:"design"`
	Runs   int       `json:"runs"` // A/A runs with a verdict
	// MeanMDE is the A/A runs' mean minimum detectable effect (%), at
	// their end, and MeanTook their mean wall time (minutes).
	MeanMDE  float64 `json:"mean_mde_pct"`
	MeanTook float64 `json:"mean_minutes"`
	// MDEMinute is the MDE scaled to one minute of run time
	// (MeanMDE·√MeanTook: an MDE falls as the square root of the rounds),
	// and MinutesFor1 the minutes to reach ±1 % (MeanTook·MeanMDE²).
	MDEMinute   float64 `json:"mde_one_minute_pct"`
	MinutesFor1 float64 `json:"minutes_for_1pct"`
}

// Designs is the per-minute comparison of the designs in rows (their A/A
// rows), in their order; nil unless rows hold two designs or more.
func Designs(rows []Row) []DesignRow {
	var out []DesignRow
	for _, r := range rows {
		if r.EffectPct != 0 || r.Design == "" {
			continue
		}
		d := DesignRow{Design: r.Design, Runs: r.Runs, MeanMDE: r.MeanMDE, MeanTook: r.MeanTook, MDEMinute: math.NaN(), MinutesFor1: math.NaN()}
		if r.Runs > 0 && r.MeanMDE > 0 && r.MeanTook > 0 {
			d.MDEMinute = r.MeanMDE * math.Sqrt(r.MeanTook)
			d.MinutesFor1 = r.MeanTook * r.MeanMDE * r.MeanMDE
		}
		out = append(out, d)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// Best is the design with the smallest MDE per minute and how many times
// more minutes the runner-up needs for the same MDE; ok is false when
// no design has a figure.
func Best(ds []DesignRow) (best DesignRow, factor float64, ok bool) {
	var second DesignRow
	for _, d := range ds {
		if math.IsNaN(d.MDEMinute) {
			continue
		}
		switch {
		case !ok || d.MDEMinute < best.MDEMinute:
			second, best, ok = best, d, true
		case second.Design == "" || d.MDEMinute < second.MDEMinute:
			second = d
		}
	}
	if !ok || second.Design == "" {
		return best, math.NaN(), ok
	}
	return best, (second.MDEMinute / best.MDEMinute) * (second.MDEMinute / best.MDEMinute), true
}

// String is the comparison's line: "duet: ±1.2 % in one minute, 1.4 min for ±1 %".
func (d DesignRow) String() string {
	if math.IsNaN(d.MDEMinute) {
		return fmt.Sprintf("%s: no A/A run with a verdict", d.Design)
	}
	return fmt.Sprintf("%s: MDE ±%.1f%% in %.1f min (%d A/A runs) = ±%.1f%% in one minute; %.1f min for ±1%%",
		d.Design, d.MeanMDE, d.MeanTook, d.Runs, d.MDEMinute, d.MinutesFor1)
}
