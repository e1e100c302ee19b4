package lab

import (
	"math"
	"testing"
)

func TestCostPerMillion(t *testing.T) {
	nano := Host{Hostname: "nano", CPUs: 2, MemoryBytes: 512 << 20}
	for _, c := range []struct {
		name string
		cost Cost
		want float64 // per million at 1000 req/s
	}{
		{"per host", Cost{Hour: 0.0047}, 0.0047 / 3.6},
		{"per vCPU and GB", Cost{VCPUHour: 0.002, GBHour: 0.001}, (2*0.002 + 0.5*0.001) / 3.6},
		{"by name first", Cost{Hour: 1, Hosts: map[string]float64{"nano": 0.0047}}, 0.0047 / 3.6},
	} {
		if got := c.cost.PerMillion("", nano, 1000); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %v per million, want %v", c.name, got, c.want)
		}
	}
	if got := (Cost{}).PerMillion("", nano, 1000); !math.IsNaN(got) {
		t.Errorf("no prices: %v, want NaN", got)
	}
	if got := (Cost{Hour: 1}).PerMillion("", nano, 0); !math.IsNaN(got) {
		t.Errorf("no rate: %v, want NaN", got)
	}
	if msg := (Cost{Hour: -1}).Check(); msg == "" {
		t.Error("a negative price passes")
	}
	if msg := (Cost{Hosts: map[string]float64{"x": 0}}).Check(); msg == "" {
		t.Error("a zero host price passes")
	}
}
