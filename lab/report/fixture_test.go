package report_test

import (
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// fixtureRun is the synthetic run the report tests render: three variants
// of socket-vs-tcp on two scenarios, with an OOM kill and a failed trial.
func fixtureRun(model lab.Model) *lab.Run {
	run := statstest.Run(statstest.Spec{
		Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle", "GETSingleEmbed"}, Trials: 8,
		Noise: 0.02, Drift: 0.03, Seed: 42, Detail: true, Model: model,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 2371, P50Ms: 4.1, ServerUs: 447, DBUs: 335, RSSMB: 61,
				Changes: []lab.Change{{Where: "postgrest", Key: "db-uri", From: "postgres://authenticator@localhost:5432/chinook", To: "postgres://authenticator@localhost:5432/chinook"}}},
			{Name: "unix", Rate: 2575, P50Ms: 3.8, ServerUs: 417, DBUs: 294, RSSMB: 61,
				Changes: []lab.Change{{Where: "postgrest", Key: "db-uri", From: "postgres://authenticator@localhost:5432/chinook", To: "postgres://authenticator@/chinook?host=/run/postgresql"}}},
			{Name: "unix-nolog", Rate: 2580, P50Ms: 3.8, ServerUs: 410, DBUs: 294, RSSMB: 62,
				Changes: []lab.Change{
					{Where: "postgrest", Key: "db-uri", From: "postgres://authenticator@localhost:5432/chinook", To: "postgres://authenticator@/chinook?host=/run/postgresql"},
					{Where: "postgrest", Key: "log-level", From: "error", To: "crit"}}},
		},
	})
	run.Experiment.Title = "Unix socket vs TCP db-uri"
	run.Experiment.Description = "Does a Unix-socket db-uri make PostgREST faster than TCP on the same host?"
	for i := range run.Trials {
		t := &run.Trials[i]
		switch {
		case t.Variant == "unix-nolog" && t.Scenario == "GETSingleEmbed" && t.Rep == 3:
			t.Events = append(t.Events, lab.Event{T: t.Start.Add(5 * time.Second), Kind: "oom-kill", Source: "postgrest",
				Detail: "Out of memory: Killed process 4242 (postgrest-mini)", PID: 4242, Variant: t.Variant, Trial: t.Seq, Rate: 1290})
			t.Load.Errors = 35
		case t.Variant == "unix" && t.Scenario == "GETSingle" && t.Rep == 5:
			t.Error = "not ready after 30s"
		}
	}
	return run
}
