package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// bmfMetric is a Bencher metric: "value" is required, "lower_value" and
// "upper_value" are optional (https://bencher.dev/bmf.json).
type bmfMetric struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value,omitempty"`
	Upper *float64 `json:"upper_value,omitempty"`
}

// BMF writes the run in the Bencher Metric Format (BMF) JSON that
// `bencher run --adapter json` reads: an object with one key per
// benchmark, "<scenario>/<variant>", each an object with one key per
// measure:
//
//   - "throughput": median req/s (Bencher's built-in Throughput measure,
//     operations / second);
//   - "latency": median p99 in nanoseconds (Bencher's built-in Latency
//     measure is in nanoseconds);
//   - "cpu-per-request": median server + database CPU per request, in µs
//     (a custom measure; Bencher creates it on first use).
//
// value is the median of the run's valid trials; lower_value and
// upper_value its 95 % confidence interval, given only when the interval
// is bounded. A measure a benchmark lacks is left out, and so is a
// benchmark without any; JSON has no NaN or Inf, and none is written.
func BMF(w io.Writer, run *lab.Run) error {
	out := map[string]map[string]bmfMetric{}
	for _, sc := range stats.ScenarioNames(run) {
		for _, vn := range stats.VariantNames(run) {
			ms := map[string]bmfMetric{}
			for _, h := range exportMetrics {
				s, ok := exportSummary(run, vn, sc, h)
				if !ok {
					continue
				}
				m := bmfMetric{Value: s.Median * h.scale}
				if s.Bounded() {
					lo, hi := s.Lo*h.scale, s.Hi*h.scale
					if finiteNum(lo) && finiteNum(hi) && lo <= m.Value && m.Value <= hi {
						m.Lower, m.Upper = &lo, &hi
					}
				}
				if finiteNum(m.Value) {
					ms[h.bmf] = m
				}
			}
			if len(ms) > 0 {
				out[BMFName(sc, vn)] = ms
			}
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("bmf: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// BMFName is a benchmark's name in BMF: "GETSingle/tcp". The "/" keeps
// it from reading as a Bencher slug or UUID, which take precedence over
// names.
func BMFName(scenario, variant string) string { return scenario + "/" + variant }

func finiteNum(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
