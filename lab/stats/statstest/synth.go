// Package statstest builds synthetic run records for tests of verdicts and
// reports: deterministic (seeded) trials with realistic shapes, so that
// pure logic can be tested without running load.
package statstest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Variant describes one synthetic variant. Its per-trial values are drawn
// around these centres.
type Variant struct {
	Name     string
	Baseline bool
	Rate     float64 // req/s
	P50Ms    float64
	ServerUs float64 // server CPU µs/request
	DBUs     float64 // database CPU µs/request
	RSSMB    float64
	Changes  []lab.Change
}

// Spec describes a synthetic run.
type Spec struct {
	Experiment string
	Scenarios  []string
	Variants   []Variant
	Trials     int     // per variant and scenario
	Noise      float64 // relative standard deviation of each value
	Drift      float64 // relative standard deviation of a per-round drift shared by all variants
	// Speed is the relative standard deviation of a per-trial machine
	// speed that scales both CPU costs per request and the speed
	// reference (Trial.SpeedRefNs, set only when Speed > 0), as a shared
	// VM's memory system does.
	Speed float64
	Seed  uint64
	// Detail adds per-second series, telemetry samples and (with model
	// "search") rate-vs-latency curves.
	Detail bool
	Model  lab.Model // default "closed"
}

// Start is the synthetic run's start time.
var Start = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// Run builds the run record.
func Run(s Spec) *lab.Run {
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
	model := s.Model
	if model == "" {
		model = lab.ModelClosed
	}
	exp := lab.Experiment{
		Name: s.Experiment, Title: "Synthetic: " + s.Experiment, Scenarios: s.Scenarios,
		Load:   lab.Load{Model: model, Connections: 10, Duration: 10 * time.Second, Warmup: 2 * time.Second},
		Trials: lab.Trials{Min: s.Trials, Max: s.Trials, Order: lab.OrderInterleaved, Alpha: 0.05},
	}
	run := &lab.Run{
		Schema: lab.RecordSchema, Experiment: exp, Started: Start,
		Host: lab.Host{Hostname: "lab1", OS: "Debian GNU/Linux 12", Kernel: "6.1.0-test", CPUModel: "Test CPU @ 2.0GHz",
			CPUs: 2, MemoryBytes: 24 << 30, CgroupMode: "v2", PostgreSQL: "15.8", LabVersion: "test", GoVersion: "go1.26"},
		Target: lab.TargetInfo{Binary: "/usr/local/bin/postgrest-mini", Version: "postgrest-mini 0.1 (PostgREST 13 compatible)",
			Reference: true, Supervisor: "systemd-user", URL: "http://127.0.0.1:3000", Unit: "pgrst-lab-postgrest.service"},
	}
	for _, v := range s.Variants {
		exp.Variants = append(exp.Variants, lab.Variant{Name: v.Name, Baseline: v.Baseline})
		run.Variants = append(run.Variants, lab.VariantInfo{Name: v.Name, Baseline: v.Baseline, Changes: v.Changes,
			Description: fmt.Sprintf("synthetic %s", v.Name)})
	}
	run.Experiment.Variants = exp.Variants
	at := Start
	seq := 0
	noise := func() float64 { return 1 + s.Noise*rng.NormFloat64() }
	for rep := 1; rep <= s.Trials; rep++ {
		drift := 1 + s.Drift*rng.NormFloat64()
		for si, sc := range s.Scenarios {
			scale := 1 / float64(si+1)
			for _, v := range s.Variants {
				seq++
				rate := v.Rate * scale * drift * noise()
				secs := 10.0
				reqs := int64(rate * secs)
				p50 := v.P50Ms / scale * noise()
				t := lab.Trial{
					Seq: seq, Variant: v.Name, Scenario: sc, Rep: rep,
					Start: at, End: at.Add(12 * time.Second), ReadyAfter: 300 * time.Millisecond,
					Load: lab.LoadStats{
						Model: model, Requests: reqs, Seconds: secs, Rate: rate, Connections: 10,
						LatencyMs: lab.Percentiles{Min: p50 * 0.4 * noise(), Mean: p50 * 1.1, P50: p50, P90: p50 * 1.6, P95: p50 * 1.9,
							P99: p50 * 3 * noise(), P999: p50 * 5, Max: p50 * 9},
						ServiceMs: lab.Percentiles{P50: p50 * 0.98, P99: p50 * 2.9},
						BytesIn:   reqs * 230, BytesOut: reqs * 110,
						Status: map[string]int64{"200": reqs},
					},
					Server:   usage(v.ServerUs*noise(), v.RSSMB*noise(), reqs, secs),
					Database: usage(v.DBUs*noise(), 0, reqs, secs),
					DB:       lab.DBStats{TransactionsPerRequest: 1, StatementsPerRequest: 3, Backends: 10},
				}
				if s.Speed > 0 {
					slow := math.Exp(s.Speed * rng.NormFloat64())
					scaleCPU(&t.Server, slow)
					scaleCPU(&t.Database, slow)
					t.SpeedRefNs = 1.7e6 * slow * (1 + 0.005*rng.NormFloat64())
				}
				if s.Detail {
					addDetail(&t, rng, model)
				}
				run.Trials = append(run.Trials, t)
				at = at.Add(15 * time.Second)
			}
		}
	}
	run.Finished = at
	return run
}

func usage(us, rssMB float64, reqs int64, secs float64) lab.Usage {
	cpu := us * float64(reqs) / 1e6
	u := lab.Usage{CPUSeconds: cpu, CPUUtil: cpu / secs, CPUPerRequestUs: us}
	if rssMB > 0 {
		u.PeakRSS = uint64(rssMB * 1e6)
		u.MeanRSS = uint64(rssMB * 0.9e6)
	}
	return u
}

func scaleCPU(u *lab.Usage, f float64) {
	u.CPUSeconds *= f
	u.CPUUtil *= f
	u.CPUPerRequestUs *= f
}

// addDetail adds per-second series, telemetry samples and a search curve.
func addDetail(t *lab.Trial, rng *rand.Rand, model lab.Model) {
	// The generator stamps a second at its end: the first is T = 1.
	per := float64(t.Load.Requests) / t.Load.Seconds
	for i := range int(t.Load.Seconds) {
		t.Series = append(t.Series, lab.Second{T: float64(i + 1), Requests: int64(per * (1 + 0.02*rng.NormFloat64())),
			P50Ms: t.Load.LatencyMs.P50, P99Ms: t.Load.LatencyMs.P99})
	}
	for i := 0; i <= 24; i++ {
		ts := float64(i) * 0.5
		load := 1.0
		if ts < 2 { // warm-up
			load = ts / 2
		}
		t.Server.Samples = append(t.Server.Samples, lab.UsageSample{T: ts,
			CPU: t.Server.CPUUtil * load * (1 + 0.05*rng.NormFloat64()), RSS: uint64(float64(t.Server.PeakRSS) * (0.8 + 0.2*load))})
		t.Database.Samples = append(t.Database.Samples, lab.UsageSample{T: ts,
			CPU: t.Database.CPUUtil * load * (1 + 0.05*rng.NormFloat64()), RSS: 150e6})
	}
	if model.SearchesEachTrial() {
		limit := t.Load.Rate
		for _, f := range []float64{0.25, 0.5, 0.75, 0.9, 1.0, 1.1} {
			asked := limit * f
			ok := f <= 1
			p99 := t.Load.LatencyMs.P99 * (0.5 + 0.5*f/math.Max(1.05-f, 0.05)*0.1)
			got := asked
			if !ok {
				got = limit * 1.02
			}
			t.Curve = append(t.Curve, lab.CurvePoint{AskedRate: asked, Rate: got, P99Ms: p99, OK: ok})
		}
	}
}
