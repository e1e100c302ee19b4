package lab

import (
	"maps"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// TargetsScenario is the name of the scenario a targets file becomes.
const TargetsScenario = "targets"

// UseTargets makes the targets file at path (resolved) the scenario
// "targets". With only (lab run --targets), it replaces the experiment's
// scenarios; otherwise it is added to them (the experiment's targets key).
func (e *Experiment) UseTargets(path string, only bool) {
	e.Targets = path
	sc := Scenario{Name: TargetsScenario, Targets: path, Weight: DefaultWeight}
	if only {
		e.Scenarios, e.Custom = []string{TargetsScenario}, []Scenario{sc}
		return
	}
	e.Custom = slices.DeleteFunc(e.Custom, func(s Scenario) bool { return s.Name == TargetsScenario && s.Targets != "" })
	e.Custom = append(e.Custom, sc)
	if !slices.Contains(e.Scenarios, TargetsScenario) {
		e.Scenarios = append(e.Scenarios, TargetsScenario)
	}
}

// Redacted is a copy of e fit for run.json and reports: secret PostgREST
// keys (jwt-secret, a db-uri's password) and secret environment values
// replaced as capability.Redact does; JWTSecret is never serialised.
func (e *Experiment) Redacted() Experiment {
	c := *e
	c.Variants = slices.Clone(e.Variants)
	for i, v := range c.Variants {
		if v.PostgREST != nil {
			m := maps.Clone(v.PostgREST)
			for k, val := range m {
				m[k] = capability.Redact(k, val)
			}
			c.Variants[i].PostgREST = m
		}
		if v.Env != nil {
			m := maps.Clone(v.Env)
			for k, val := range m {
				m[k] = capability.RedactEnv(k, val)
			}
			c.Variants[i].Env = m
		}
	}
	return c
}
