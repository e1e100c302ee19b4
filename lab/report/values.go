package report

import "github.com/pgrst-lab/pgrst-lab/lab"

// ValuesOf returns a metric's values over valid trials.
func ValuesOf(trials []lab.Trial, m lab.Metric) []float64 {
	var vs []float64
	for _, t := range trials {
		if t.Error != "" {
			continue
		}
		if v, ok := m.Of(t); ok {
			vs = append(vs, v)
		}
	}
	return vs
}
