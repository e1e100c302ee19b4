// Package historytest builds synthetic histories for the tests of lab
// history's analysis and of its renderers (lab/report/history): runs of
// socket-vs-tcp drawn by lab/stats/statstest, one a day, with a commit,
// version, host and edition each, and series with a known step.
package historytest

import (
	"crypto/sha1"
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// Synth is one synthetic run of socket-vs-tcp: unix's throughput (and its
// CPU per request, inversely) at Rate; tcp constant.
type Synth struct {
	Rate    float64
	Commit  string
	Version string
	Day     int // days after statstest.Start
	Host    string
	Hash    string // the experiment's edition
}

// Run is s as history reads it, its trials drawn with seed.
func Run(s Synth, seed uint64) history.Run {
	run := statstest.Run(statstest.Spec{
		Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: 6, Noise: 0.01, Seed: seed,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "unix", Rate: s.Rate, P50Ms: 4 * 2400 / s.Rate, ServerUs: 420 * 2600 / s.Rate, DBUs: 300, RSSMB: 60},
		},
	})
	shift := time.Duration(s.Day) * 24 * time.Hour
	run.Started, run.Finished = run.Started.Add(shift), run.Finished.Add(shift)
	for i := range run.Trials {
		run.Trials[i].Start = run.Trials[i].Start.Add(shift)
		run.Trials[i].End = run.Trials[i].End.Add(shift)
	}
	for i := range run.Variants {
		run.Variants[i].Build = lab.Build{Commit: s.Commit, Version: s.Version}
	}
	if s.Host != "" {
		run.Host.Hostname, run.Host.HostID = s.Host, "id-"+s.Host
	}
	run.ExperimentHash = s.Hash
	id := run.Started.Format("20060102-150405")
	return history.Run{ID: id, Ref: "/results/socket-vs-tcp/" + id, Run: run}
}

// StepRuns are n runs, one a day, with a step from 2600 to 2600×(1+step)
// at run at (0-based); run i's commit is the SHA-1 of byte i.
func StepRuns(n, at int, step float64) []history.Run {
	var rs []history.Run
	for i := range n {
		rate := 2600.0
		if i >= at {
			rate *= 1 + step
		}
		rs = append(rs, Run(Synth{Rate: rate, Commit: fmt.Sprintf("%x", sha1.Sum([]byte{byte(i)})), Version: fmt.Sprintf("v12.%d.0", i), Day: i}, uint64(i+1)))
	}
	return rs
}
