package lab

import (
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

// UseScenarios runs these scenarios instead of the file's (--scenarios,
// lab ab's arguments); a targets file not among them is dropped with its
// scenario, so that the built-in scenarios replace it.
func (e *Experiment) UseScenarios(names []string) {
	e.Scenarios = slices.Clone(names)
	if e.Targets != "" && !slices.Contains(names, TargetsScenario) {
		e.Targets, e.PerLine = "", false
		e.Custom = slices.DeleteFunc(e.Custom, func(s Scenario) bool { return s.Name == TargetsScenario && s.Targets != "" })
	}
}

// Redacted is a copy of e fit for run.json, reports and the store: every
// setting's value as package capability shows it (RedactSetting: a
// PostgREST key's value only when PostgREST's table marks it Visible, a
// db-uri without its passwords; custom PostgreSQL settings and unknown
// variables hidden), in the variants and a sweep's template, and the
// target's pg_uri without its password. JWTSecret is never serialised.
func (e *Experiment) Redacted() Experiment {
	c := *e
	c.Target.PGURI = capability.RedactURI(e.Target.PGURI)
	c.Variants = slices.Clone(e.Variants)
	for i := range c.Variants {
		c.Variants[i] = c.Variants[i].redacted()
	}
	if e.Sweep != nil {
		s := *e.Sweep
		if s.Template != nil {
			t := s.Template.redacted()
			s.Template = &t
		}
		c.Sweep = &s
	}
	return c
}

// redacted is v with its settings' values as capability shows them.
func (v Variant) redacted() Variant {
	redact := func(kind string, m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, val := range m {
			out[k] = capability.RedactSetting(kind, k, val)
		}
		return out
	}
	v.PostgREST = redact("postgrest", v.PostgREST)
	v.PostgreSQL = redact("postgresql", v.PostgreSQL)
	v.Env = redact("env", v.Env)
	return v
}
