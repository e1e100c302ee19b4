package main

import (
	"github.com/pgrst-lab/pgrst-lab/lab/report/load"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// loadResult is what the load report reads of a generator's result (the
// report room does not import the generator).
func loadResult(s loadgen.Summary, series []loadgen.Second) *load.Result {
	r := &load.Result{Scenario: s.Scenario, Model: s.Model, TargetRate: s.TargetRate, Connections: s.Connections,
		Duration: s.Duration, Requests: s.Requests, Errors: s.Errors, Dropped: s.Dropped, Waited: s.Waited,
		Rate: s.Rate, ErrorRate: s.ErrorRate(), DroppedRate: s.DroppedRate(),
		Min: s.Min, Mean: s.Mean, P50: s.P50, P90: s.P90, P95: s.P95, P99: s.P99, P999: s.P999, Max: s.Max,
		ServiceMin: s.ServiceMin, ServiceMean: s.ServiceMean, ServiceP50: s.ServiceP50, ServiceP90: s.ServiceP90,
		ServiceP95: s.ServiceP95, ServiceP99: s.ServiceP99, ServiceMax: s.ServiceMax,
		SendDelayP50: s.SendDelayP50, SendDelayP99: s.SendDelayP99, SendDelayMax: s.SendDelayMax,
		ServerTotal: s.ServerTotal.Mean, Timed: s.Timed, BytesIn: s.BytesIn, BytesOut: s.BytesOut,
		MaxInFlight: s.MaxInFlight, Status: s.Status, ErrorKinds: s.ErrorKinds}
	for _, p := range s.Phases {
		r.Phases = append(r.Phases, load.Phase{Name: p.Name, Mean: p.Mean})
	}
	for _, x := range series {
		r.Series = append(r.Series, load.Second{At: x.At, Requests: x.Requests, Errors: x.Errors, Dropped: x.Dropped,
			P50: x.P50, P99: x.P99, Max: x.Max})
	}
	return r
}

// loadSearch is what the load report reads of a rate search.
func loadSearch(sr *loadgen.SearchResult) *load.Search {
	out := &load.Search{Best: sr.Best}
	for _, p := range sr.Curve {
		out.Curve = append(out.Curve, load.Step{Asked: p.Rate, Pass: p.Pass, Why: p.Why, Result: *loadResult(p.Summary, nil)})
	}
	return out
}
