package statstest

import (
	"math/rand/v2"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// AddEndpoints gives every trial of run a targets file's lines: "200 GET
// /track?select=*" (line 1), whose P50 is faster by the factor
// faster[variant] (1 when absent), "200 GET /artist?select=*&artist_id=eq.3"
// (line 4), unchanged, each with noise (relative SD) around its centre, and
// a "404 GET /nothing" line (7) in the variants of only404 alone.
func AddEndpoints(run *lab.Run, faster map[string]float64, noise float64, only404 string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed^0x51ed2701))
	n := func() float64 { return 1 + noise*rng.NormFloat64() }
	for i := range run.Trials {
		t := &run.Trials[i]
		f := faster[t.Variant]
		if f == 0 {
			f = 1
		}
		half := t.Load.Requests / 2
		slow := 40 / f * n()
		fast := 1.2 * n()
		t.Load.Endpoints = []lab.EndpointStats{
			row("GET", "/track?select=*", 200, 1, half/10, slow),
			row("GET", "/artist?select=*&artist_id=eq.3", 200, 4, half, fast),
		}
		if t.Variant == only404 {
			t.Load.Endpoints = append(t.Load.Endpoints, row("GET", "/nothing", 404, 7, half/20, 0.8*n()))
		}
	}
}

func row(method, path string, status, line int, n int64, p50 float64) lab.EndpointStats {
	return lab.EndpointStats{Name: lab.EndpointName(status, method, path), Method: method, Path: path, Status: status, Line: line,
		Requests: n, MinMs: p50 * 0.5, P50Ms: p50, P90Ms: p50 * 1.4, P95Ms: p50 * 1.6, P99Ms: p50 * 2.2, MaxMs: p50 * 4}
}
