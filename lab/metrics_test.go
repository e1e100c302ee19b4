package lab

import (
	"math"
	"testing"
)

func TestErrorsMetric(t *testing.T) {
	m, ok := MetricByName("errors")
	if !ok {
		t.Fatal("no errors metric")
	}
	for _, c := range []struct {
		name                      string
		requests, errors, dropped int64
		want                      float64
		known                     bool
	}{
		{"nothing sent", 0, 0, 0, 0, false},
		{"all dropped", 0, 0, 50, 100, true},
		{"half dropped, rest fine", 50, 0, 50, 50, true},
		{"some failed", 200, 10, 0, 5, true},
		{"failed and dropped", 90, 9, 10, 19, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, known := m.Of(Trial{Load: LoadStats{Requests: c.requests, Errors: c.errors, Dropped: c.dropped}})
			if known != c.known || (known && (math.IsNaN(got) || math.IsInf(got, 0) || math.Abs(got-c.want) > 1e-9)) {
				t.Fatalf("errors = %v (known %v), want %v (known %v)", got, known, c.want, c.known)
			}
		})
	}
}

// A trial whose every answer failed has no CPU per request: the failures'
// cost is not the cost of the work asked for.
func TestCPUPerRequestNeedsASuccess(t *testing.T) {
	cpu := func(requests, errors int64) Trial {
		return Trial{Load: LoadStats{Requests: requests, Errors: errors},
			Server:   Usage{CPUSeconds: 1, CPUPerRequestUs: 200},
			Database: Usage{CPUSeconds: 1, CPUPerRequestUs: 100}}
	}
	for _, name := range []string{"server_cpu", "db_cpu", "cpu"} {
		m, _ := MetricByName(name)
		if _, known := m.Of(cpu(100, 100)); known {
			t.Errorf("%s known for a trial whose 100 answers all failed", name)
		}
		if _, known := m.Of(cpu(100, 99)); !known {
			t.Errorf("%s unknown for a trial with one success", name)
		}
	}
}
