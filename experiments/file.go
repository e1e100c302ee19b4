package experiments

import (
	"fmt"
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// The file format: an experiment file's tables and keys, by their TOML
// names. Parse decodes a file into fileExperiment (the checker walks the
// same types to report unknown keys and wrong types) and converts it into
// the model, lab.Experiment, which Validate then checks. The string maps of
// variants and scenarios also take numbers and booleans (db-pool = 10).

type fileExperiment struct {
	Name             string         `toml:"name"`
	Title            string         `toml:"title"`
	Description      string         `toml:"description"`
	Target           fileTarget     `toml:"target"`
	Scenarios        []string       `toml:"scenarios"`
	Custom           []fileScenario `toml:"scenario"`
	Targets          string         `toml:"targets"`
	PerLine          bool           `toml:"per_line"`
	JWTSecret        string         `toml:"jwt_secret"`
	JWTPrivateKey    string         `toml:"jwt_private_key"`
	Load             lab.Load       `toml:"load"`
	Trials           lab.Trials     `toml:"trials"`
	Variants         []fileVariant  `toml:"variant"`
	Sweep            *fileSweep     `toml:"sweep"`
	Partition        filePartition  `toml:"partition"`
	Cost             lab.Cost       `toml:"cost"`
	AllowUnknownKeys bool           `toml:"allow_unknown_keys"`
	Profile          bool           `toml:"profile"`
	Actions          []lab.Action   `toml:"action"`
	Timeline         bool           `toml:"timeline"`
}

// fileTarget is [target] (lab.Target): a local stack's directory, or an
// existing server.
type fileTarget struct {
	Stack string `toml:"stack"`
	ServerTable
}

// ServerTable is the keys of a [target] table that name an existing
// server: the same in an experiment file and in lab agent's AGENT.toml.
type ServerTable struct {
	Unit     string `toml:"unit"`      // PostgREST unit
	Config   string `toml:"config"`    // its config file
	URL      string `toml:"url"`       // its API URL
	AdminURL string `toml:"admin_url"` // its admin server (/ready, /metrics)
	PGUnit   string `toml:"pg_unit"`   // PostgreSQL unit, for restarts and telemetry
	PGURI    string `toml:"pg_uri"`    // superuser URI, for settings and counters
}

// Target is the table as the lab's model has it, with a local stack's
// directory ("" for an existing server or the default stack).
func (s ServerTable) Target(stack string) lab.Target {
	return lab.Target{Stack: stack, Unit: s.Unit, Config: s.Config, URL: s.URL, AdminURL: s.AdminURL, PGUnit: s.PGUnit, PGURI: s.PGURI}
}

// filePartition is [partition] (lab.Partition).
type filePartition struct {
	Generator  string `toml:"generator"`
	PostgREST  string `toml:"postgrest"`
	PostgreSQL string `toml:"postgresql"`
}

// fileScenario is a [[scenario]] (lab.Scenario).
type fileScenario struct {
	Name     string  `toml:"name"`
	Method   string  `toml:"method"`
	Path     string  `toml:"path"`
	Header   scalars `toml:"header"`
	Body     string  `toml:"body"`
	BodyFile string  `toml:"body_file"`
	Expect   int     `toml:"expect"`
	Weight   float64 `toml:"weight"`
}

// fileVariant is a [[variant]] (lab.Variant).
type fileVariant struct {
	Name        string   `toml:"name"`
	Description string   `toml:"description"`
	Baseline    bool     `toml:"baseline"`
	PostgREST   scalars  `toml:"postgrest"`
	PostgreSQL  scalars  `toml:"postgresql"`
	Env         scalars  `toml:"env"`
	DropIn      scalars  `toml:"dropin"`
	Binary      string   `toml:"binary"`
	Args        []string `toml:"args"`
	Sandbox     *bool    `toml:"sandbox"`
}

// fileSweep is [sweep] (lab.Sweep): the first axis' keys are the table's
// own, the second axis is [sweep.cross].
type fileSweep struct {
	fileSweepAxis
	Cross    *fileSweepAxis `toml:"cross"`
	Cheapest string         `toml:"cheapest"`
}

// fileSweepAxis is one swept key (lab.SweepAxis).
type fileSweepAxis struct {
	Key      string   `toml:"key"`
	Values   []scalar `toml:"values"`
	From     float64  `toml:"from"`
	To       float64  `toml:"to"`
	Step     float64  `toml:"step"`
	Factor   float64  `toml:"factor"`
	Unit     string   `toml:"unit"`
	Baseline scalar   `toml:"baseline"`
}

// scalar is a value a file may write as a string, a number or a boolean,
// kept as text (lab.Scalar).
type scalar string

// UnmarshalTOML implements toml.Unmarshaler.
func (s *scalar) UnmarshalTOML(v any) error {
	t, err := tomlText(v)
	*s = scalar(t)
	return err
}

// scalars is a map[string]string decoded from a table of strings, numbers
// and booleans.
type scalars map[string]string

// UnmarshalTOML implements toml.Unmarshaler.
func (s *scalars) UnmarshalTOML(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("must be a table, not %s", describe(v))
	}
	*s = make(scalars, len(m))
	for k, x := range m {
		t, err := scalarText(x)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		(*s)[k] = t
	}
	return nil
}

// tomlText renders a decoded TOML scalar as text: strings as they are,
// numbers and booleans as TOML writes them.
func tomlText(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("must be a string, number or boolean, not %T", v)
}

// defaultFile is the file every experiment file is decoded over: the
// model's defaults (lab.Experiment.Defaults), so that what a file leaves
// out is the default and what it writes, even 0, is kept.
func defaultFile() fileExperiment {
	var e lab.Experiment
	e.Defaults()
	return fileExperiment{Load: e.Load, Trials: e.Trials}
}

// experiment converts the file into the model (not yet validated).
func (f *fileExperiment) experiment() *lab.Experiment {
	e := &lab.Experiment{
		Name: f.Name, Title: f.Title, Description: f.Description, Target: f.Target.Target(f.Target.Stack),
		Scenarios: f.Scenarios, Targets: f.Targets, PerLine: f.PerLine, JWTSecret: f.JWTSecret,
		JWTPrivateKey: f.JWTPrivateKey,
		Load:          f.Load,
		Trials:        f.Trials,
		Partition:     lab.Partition(f.Partition), Cost: f.Cost, AllowUnknownKeys: f.AllowUnknownKeys, Profile: f.Profile,
		Actions: f.Actions, Timeline: f.Timeline,
	}
	for _, s := range f.Custom {
		e.Custom = append(e.Custom, lab.Scenario{Name: s.Name, Method: s.Method, Path: s.Path, Header: s.Header,
			Body: s.Body, BodyFile: s.BodyFile, Expect: s.Expect, Weight: s.Weight})
	}
	for _, v := range f.Variants {
		e.Variants = append(e.Variants, lab.Variant{Name: v.Name, Description: v.Description, Baseline: v.Baseline,
			PostgREST: v.PostgREST, PostgreSQL: v.PostgreSQL, Env: v.Env, DropIn: v.DropIn, Binary: v.Binary, Args: v.Args,
			Unsandboxed: v.Sandbox != nil && !*v.Sandbox})
	}
	if s := f.Sweep; s != nil {
		e.Sweep = &lab.Sweep{SweepAxis: s.fileSweepAxis.axis(), Cheapest: lab.Cheapest(s.Cheapest)}
		if s.Cross != nil {
			c := s.Cross.axis()
			e.Sweep.Cross = &c
		}
	}
	return e
}

func (a fileSweepAxis) axis() lab.SweepAxis {
	out := lab.SweepAxis{Key: a.Key, From: a.From, To: a.To, Step: a.Step, Factor: a.Factor, Unit: a.Unit, Baseline: lab.Scalar(a.Baseline)}
	if a.Values != nil {
		out.Values = make([]lab.Scalar, len(a.Values))
		for i, v := range a.Values {
			out.Values[i] = lab.Scalar(v)
		}
	}
	return out
}
