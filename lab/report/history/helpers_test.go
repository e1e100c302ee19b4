package history_test

import (
	"crypto/sha1"
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// synth is one synthetic run: unix's throughput (and its CPU per request,
// inversely) at rate; tcp constant.
type synth struct {
	rate    float64
	commit  string
	version string
	day     int // days after statstest.Start
	host    string
	hash    string
}

func makeRun(s synth, seed uint64) history.Run {
	run := statstest.Run(statstest.Spec{
		Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: 6, Noise: 0.01, Seed: seed,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "unix", Rate: s.rate, P50Ms: 4 * 2400 / s.rate, ServerUs: 420 * 2600 / s.rate, DBUs: 300, RSSMB: 60},
		},
	})
	shift := time.Duration(s.day) * 24 * time.Hour
	run.Started, run.Finished = run.Started.Add(shift), run.Finished.Add(shift)
	for i := range run.Trials {
		run.Trials[i].Start = run.Trials[i].Start.Add(shift)
		run.Trials[i].End = run.Trials[i].End.Add(shift)
	}
	for i := range run.Variants {
		run.Variants[i].Build = lab.Build{Commit: s.commit, Version: s.version}
	}
	if s.host != "" {
		run.Host.Hostname, run.Host.HostID = s.host, "id-"+s.host
	}
	run.ExperimentHash = s.hash
	id := run.Started.Format("20060102-150405")
	return history.Run{ID: id, Ref: "/results/socket-vs-tcp/" + id, Run: run}
}

// stepRuns are n runs, one a day, with a step from 2600 to 2600×(1+step)
// at run at (0-based); run i's commit is the SHA-1 of byte i.
func stepRuns(n, at int, step float64) []history.Run {
	var rs []history.Run
	for i := range n {
		rate := 2600.0
		if i >= at {
			rate *= 1 + step
		}
		rs = append(rs, makeRun(synth{rate: rate, commit: fmt.Sprintf("%x", sha1.Sum([]byte{byte(i)})), version: fmt.Sprintf("v12.%d.0", i), day: i}, uint64(i+1)))
	}
	return rs
}
