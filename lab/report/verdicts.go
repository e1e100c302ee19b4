package report

import (
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// VerdictsRecord is the verdicts as verdicts.json records them (with the
// run, its variants' binaries; run may be nil).
func VerdictsRecord(v *stats.Verdicts, run *lab.Run) record.VerdictsV1 {
	rows := make([]record.VerdictRowV1, len(v.Rows))
	for i, r := range v.Rows {
		rows[i] = rowRecord(r)
	}
	out := record.VerdictsV1{Alpha: v.Alpha, Confidence: v.Confidence, Baseline: v.Baseline, Scenarios: v.Scenarios,
		Variants: v.Variants, Rows: rows, Method: v.Method(), Sequential: v.Design.Sequential,
		MinRounds: v.Design.Min, MaxRounds: v.Design.Max, Rounds: v.Rounds, Sweep: sweepRecord(v.Sweep)}
	if run != nil {
		for _, vi := range run.Variants {
			if vi.Binary != "" {
				out.Binaries = append(out.Binaries, record.BinaryV1{Variant: vi.Name, Binary: vi.Binary, Version: vi.Version})
			}
		}
	}
	return out
}

func rowRecord(r stats.Row) record.VerdictRowV1 {
	return record.VerdictRowV1{
		Scenario: r.Scenario, Metric: r.Metric.Name, Label: r.Metric.Label, Unit: r.Metric.Unit, Better: r.Metric.Better,
		BaselineName: r.BaselineName, VariantName: r.VariantName,
		Baseline: summaryRecord(r.Baseline), Variant: summaryRecord(r.Variant),
		DeltaPct: format.Finite(r.DeltaPct), Delta: r.Delta(), P: r.P, Test: r.Test, PUnpaired: r.PUnpaired, Paired: pairedRecord(r.Paired),
		Alpha: r.Alpha, Threshold: r.Threshold, MDEPct: format.Finite(r.MDEPct),
		Significant: r.Significant, Outcome: string(r.Outcome), Warnings: r.Warnings,
	}
}

func rowPtr(r *stats.Row) *record.VerdictRowV1 {
	if r == nil {
		return nil
	}
	out := rowRecord(*r)
	return &out
}

func pairedRecord(p *stats.Paired) *record.PairedV1 {
	if p == nil {
		return nil
	}
	out := &record.PairedV1{N: p.N, ChangePct: format.Finite(p.ChangePct), LoPct: format.Finite(p.LoPct), HiPct: format.Finite(p.HiPct), P: p.P, SD: p.SD}
	if sa := p.Speed; sa != nil {
		out.Speed = &record.SpeedV1{Beta: sa.Beta, Corr: sa.Corr, RawP: sa.RawP, RawSD: sa.RawSD, RawChangePct: format.Finite(sa.RawChangePct)}
	}
	return out
}

func summaryRecord(s stats.Summary) record.SummaryV1 {
	vs := s.Values
	if vs == nil {
		vs = []float64{}
	}
	return record.SummaryV1{Median: format.Finite(s.Median), Lo: format.Finite(s.Lo), Hi: format.Finite(s.Hi), N: s.N, Values: vs}
}

func sweepRecord(s *stats.SweepResult) *record.SweepVerdictsV1 {
	if s == nil {
		return nil
	}
	out := &record.SweepVerdictsV1{Keys: s.Keys, Geometric: s.Geometric, Baseline: s.Baseline, Cheapest: string(s.Order)}
	for _, sc := range s.Scenarios {
		o := record.SweepScenarioV1{Scenario: sc.Scenario, Recommendation: record.RecommendationV1{
			Metric: sc.Recommendation.Metric, Best: sc.Recommendation.Best, Cheapest: sc.Recommendation.Cheapest,
			VsBest: rowPtr(sc.Recommendation.VsBest), Below: rowPtr(sc.Recommendation.Below),
			CannotTell: sc.Recommendation.CannotTell, Sentence: sc.Recommendation.Sentence}}
		for _, p := range sc.Points {
			ms := map[string]record.SummaryV1{}
			for k, m := range p.Metrics {
				ms[k] = summaryRecord(m)
			}
			o.Points = append(o.Points, record.SweepPointV1{Variant: p.Variant, Values: p.Values, Metrics: ms})
		}
		out.Scenarios = append(out.Scenarios, o)
	}
	return out
}
