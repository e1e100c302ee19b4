package statstest

import (
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// PoolSweep is a synthetic db-pool sweep (1, 2, 5, 10, 20, 50; baseline
// 10) of one scenario with the given throughput per pool size; latency
// follows throughput, RSS grows with the pool. cheapest is the sweep's
// cost order ("" for the default).
func PoolSweep(rates []float64, noise float64, seed uint64, cheapest lab.Cheapest) *lab.Run {
	pools := []lab.Scalar{"1", "2", "5", "10", "20", "50"}
	var vs []Variant
	for i, p := range pools {
		r := rates[i]
		vs = append(vs, Variant{Name: "db-pool=" + string(p), Baseline: p == "10", Rate: r,
			P50Ms: 4 * 2400 / r, ServerUs: 450, DBUs: 330, RSSMB: 60 + float64(i)})
	}
	run := Run(Spec{Experiment: "pool-size", Scenarios: []string{"GETSingle"}, Trials: 10, Noise: noise, Seed: seed, Variants: vs, Detail: true})
	run.Experiment.Sweep = &lab.Sweep{SweepAxis: lab.SweepAxis{Key: "postgrest.db-pool", Values: pools, Baseline: "10"}, Cheapest: cheapest}
	run.Experiment.Title = "db-pool sweep"
	return run
}
