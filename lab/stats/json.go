package stats

import (
	"encoding/json"
	"math"
)

// jsonRow is how a Row is written to verdicts.json: the metric by name,
// non-finite numbers (unbounded intervals, unknown deltas) as null.
type jsonRow struct {
	Scenario     string      `json:"scenario"`
	Metric       string      `json:"metric"`
	Label        string      `json:"label"`
	Unit         string      `json:"unit"`
	Better       int         `json:"better"`
	BaselineName string      `json:"baseline_name"`
	VariantName  string      `json:"variant_name"`
	Baseline     jsonSummary `json:"baseline"`
	Variant      jsonSummary `json:"variant"`
	DeltaPct     *float64    `json:"delta_pct"`
	Delta        string      `json:"delta"`
	P            float64     `json:"p"`
	Test         string      `json:"test"`
	PUnpaired    float64     `json:"p_unpaired"`
	Paired       *jsonPaired `json:"paired,omitempty"`
	Alpha        float64     `json:"alpha"`
	Threshold    float64     `json:"threshold"`
	MDEPct       *float64    `json:"mde_pct"`
	Significant  bool        `json:"significant"`
	Outcome      Outcome     `json:"outcome"`
	Warnings     []string    `json:"warnings,omitempty"`
}

type jsonPaired struct {
	N         int        `json:"n"`
	ChangePct *float64   `json:"change_pct"`
	LoPct     *float64   `json:"lo_pct"`
	HiPct     *float64   `json:"hi_pct"`
	P         float64    `json:"p"`
	SD        float64    `json:"sd_log_ratio"`
	Speed     *jsonSpeed `json:"speed_adjustment,omitempty"`
}

type jsonSpeed struct {
	Beta         float64  `json:"beta"`
	Corr         float64  `json:"corr"`
	RawP         float64  `json:"raw_p"`
	RawSD        float64  `json:"raw_sd_log_ratio"`
	RawChangePct *float64 `json:"raw_change_pct"`
}

func pairedJSON(p *Paired) *jsonPaired {
	if p == nil {
		return nil
	}
	out := &jsonPaired{N: p.N, ChangePct: finite(p.ChangePct), LoPct: finite(p.LoPct), HiPct: finite(p.HiPct), P: p.P, SD: p.SD}
	if sa := p.Speed; sa != nil {
		out.Speed = &jsonSpeed{Beta: sa.Beta, Corr: sa.Corr, RawP: sa.RawP, RawSD: sa.RawSD, RawChangePct: finite(sa.RawChangePct)}
	}
	return out
}

type jsonSummary struct {
	Median *float64  `json:"median"`
	Lo     *float64  `json:"lo"`
	Hi     *float64  `json:"hi"`
	N      int       `json:"n"`
	Values []float64 `json:"values"`
}

// MarshalJSON writes the row with its metric's name, label and unit.
func (r Row) MarshalJSON() ([]byte, error) {
	return json.Marshal(jsonRow{
		Scenario: r.Scenario, Metric: r.Metric.Name, Label: r.Metric.Label, Unit: r.Metric.Unit, Better: r.Metric.Better,
		BaselineName: r.BaselineName, VariantName: r.VariantName,
		Baseline: toJSON(r.Baseline), Variant: toJSON(r.Variant),
		DeltaPct: finite(r.DeltaPct), Delta: r.Delta(), P: r.P, Test: r.Test, PUnpaired: r.PUnpaired, Paired: pairedJSON(r.Paired),
		Alpha: r.Alpha, Threshold: r.Threshold, MDEPct: finite(r.MDEPct),
		Significant: r.Significant, Outcome: r.Outcome, Warnings: r.Warnings,
	})
}

func toJSON(s Summary) jsonSummary {
	vs := s.Values
	if vs == nil {
		vs = []float64{}
	}
	return jsonSummary{Median: finite(s.Median), Lo: finite(s.Lo), Hi: finite(s.Hi), N: s.N, Values: vs}
}

func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// MarshalJSON writes the verdicts with lower-case keys.
func (v *Verdicts) MarshalJSON() ([]byte, error) {
	rows := v.Rows
	if rows == nil {
		rows = []Row{}
	}
	b, err := json.Marshal(struct {
		Alpha      float64  `json:"alpha"`
		Confidence float64  `json:"confidence"`
		Baseline   string   `json:"baseline"`
		Scenarios  []string `json:"scenarios"`
		Variants   []string `json:"variants"`
		Rows       []Row    `json:"rows"`
		Method     string   `json:"method"`
		Sequential bool     `json:"sequential"`
		Min        int      `json:"min_rounds"`
		Max        int      `json:"max_rounds"`
		Rounds     int      `json:"rounds"`
	}{v.Alpha, v.Confidence, v.Baseline, v.Scenarios, v.Variants, rows, v.Method(), v.Design.Sequential, v.Design.Min, v.Design.Max, v.Rounds})
	return withSweep(b, err, v.Sweep)
}
