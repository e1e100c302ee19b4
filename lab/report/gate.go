package report

import (
	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// GateOf evaluates --gate's rules on a run's verdicts: the summary's Gate
// (its rules, what fired, where it was blind) and the firings themselves.
// The run's own `lab ab --markdown` and `lab report --format summary`
// (the trusted half of the fork-safe workflows) both render through it.
func GateOf(rules []gate.Rule, v *stats.Verdicts) (*Gate, []gate.Firing) {
	if rules == nil {
		return nil, nil
	}
	fired := gate.Evaluate(rules, v)
	g := &Gate{Rules: gate.String(rules)}
	for _, r := range rules {
		g.Metrics = append(g.Metrics, r.Metric)
	}
	for _, f := range fired {
		g.Fired = append(g.Fired, f.String())
	}
	for _, f := range gate.Blind(rules, v) {
		g.Blind = append(g.Blind, f.BlindString())
	}
	return g, fired
}
