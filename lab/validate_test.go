package lab

import (
	"strings"
	"testing"
	"time"
)

func validExperiment() *Experiment {
	e := &Experiment{Name: "x", Scenarios: []string{"GETSingle"},
		Variants: []Variant{{Name: "a", Baseline: true}, {Name: "b"}}}
	e.Defaults()
	return e
}

func TestDefaults(t *testing.T) {
	e := &Experiment{Custom: []Scenario{{Name: "c"}}}
	e.Defaults()
	l, tr := e.Load, e.Trials
	if l.Model != ModelClosed || l.Connections != 10 || l.Duration != 10*time.Second ||
		l.Warmup != 2*time.Second || l.Timeout != 10*time.Second {
		t.Errorf("load defaults: %+v", l)
	}
	if tr.Min != 5 || tr.Max != 10 || tr.Order != OrderInterleaved || tr.Alpha != 0.05 || tr.Seed != 1 {
		t.Errorf("trials defaults: %+v", tr)
	}
	if e.Custom[0].Method != "GET" || e.Custom[0].Weight != 1 {
		t.Errorf("scenario defaults: %+v", e.Custom[0])
	}
	// Set values are kept; max follows a larger min.
	e = &Experiment{Load: Load{Model: ModelOpen, Rate: 100}, Trials: Trials{Min: 12}}
	e.Defaults()
	if e.Load.Connections != 0 || e.Trials.Max != 12 || e.Load.Rate != 100 {
		t.Errorf("defaults overwrote or ignored set values: %+v %+v", e.Load, e.Trials)
	}
}

func TestValidateValid(t *testing.T) {
	if errs := validExperiment().Validate(); len(errs) != 0 {
		t.Fatalf("valid experiment: %v", errs)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	tests := []struct {
		name   string
		change func(e *Experiment)
		want   []string
	}{
		{"empty", func(e *Experiment) { *e = Experiment{} }, []string{
			"name: is required",
			"scenarios: list at least one scenario",
			`load.model: "" is not a load model (allowed: open, closed, search, efficiency)`,
			"load.duration: 0s must be > 0",
			"trials.min: 0: need at least 2 trials",
			`trials.order: "" is not a trial order (allowed: interleaved, random, duet)`,
			"trials.alpha: 0 must be in (0, 0.5]",
			"variant: define at least one [[variant]]",
		}},
		{"open without rate", func(e *Experiment) { e.Load.Model = ModelOpen }, []string{
			`load.rate: must be > 0 requests/s for model "open"`}},
		{"closed without connections", func(e *Experiment) { e.Load.Connections = 0 }, []string{
			`load.connections: must be > 0 for model "closed"`}},
		{"search without limit", func(e *Experiment) { e.Load.Model = ModelSearch }, []string{
			`load.limit: model "search" needs limit.p99`}},
		{"search with p99", func(e *Experiment) { e.Load.Model = ModelSearch; e.Load.Limit.P99 = time.Millisecond }, nil},
		{"trials", func(e *Experiment) { e.Trials = Trials{Min: 1, Max: 0, Order: "roundrobin", Alpha: 0.6} }, []string{
			"trials.min: 1: need at least 2",
			"trials.max: 0 must be >= trials.min (1)",
			`trials.order: "roundrobin" is not a trial order`,
			"trials.alpha: 0.6 must be in (0, 0.5]",
		}},
		{"headline", func(e *Experiment) { e.Trials.Headline = "p90" }, []string{
			`trials.headline: "p90" is not a metric with a direction (did you mean "p50"?) (allowed: rate, p50, p99,`}},
		{"neutral headline", func(e *Experiment) { e.Trials.Headline = "speed_ref" }, []string{
			`trials.headline: "speed_ref" is not a metric with a direction`}},
		{"headline named", func(e *Experiment) { e.Trials.Headline = "peak_rss" }, nil},
		{"negative warmup", func(e *Experiment) { e.Load.Warmup = -time.Second }, []string{"load.warmup: -1s must be >= 0"}},
		{"variants", func(e *Experiment) {
			e.Variants = []Variant{
				{Name: "a", Baseline: true, PostgREST: map[string]string{"db-uri": "sock", "DB_POOL": "1"}},
				{Name: "a", Baseline: true, PostgreSQL: map[string]string{"synchronous commit": "off", "auto_explain.log_min_duration": "0"}},
				{Name: "", DropIn: map[string]string{"CPUAfinity": "0", "MemoryMax": "1G"}, Env: map[string]string{"A-B": "1"}, Binary: "postgrest"},
			}
		}, []string{
			`variant[0].postgrest.DB_POOL: is not a PostgREST config key`,
			`variant[0].postgrest.db-uri: "<redacted>": use "tcp", "unix"`,
			`variant[1].name: "a" is already the name of variant[0]`,
			`variant[1].baseline: only one variant can be the baseline (variant[0] "a" already is)`,
			`variant[1].postgresql."synchronous commit": is not a PostgreSQL setting name`,
			`variant[2].name: is required`,
			`variant[2].env.A-B: is not an environment variable name`,
			`variant[2].dropin.CPUAfinity: is not an allowed drop-in setting (did you mean "CPUAffinity"?)`,
			`variant[2].binary: "postgrest" must be an absolute path or a $(VAR) placeholder`,
		}},
		{"commands, libraries and files", func(e *Experiment) {
			e.Variants[0].PostgreSQL = map[string]string{"archive_command": "id > /tmp/x; true", "work_mem": "8MB"}
			e.Variants[0].Env = map[string]string{"GHCRTS": "-N100000"}
			e.Variants[1].PostgreSQL = map[string]string{"Shared_Preload_Libraries": "/tmp/evil.so"}
			e.Variants[1].Args = []string{"+RTS", "-N2", "-S/etc/shadow", "-RTS"}
		}, []string{
			`variant[0].postgresql.archive_command: runs a shell command as the PostgreSQL server's user; no variant may set it`,
			`variant[0].env.GHCRTS: RTS option "-N100000" wants a whole number from 1 to 256 (-N: capabilities; -N alone: one per CPU)`,
			`variant[1].postgresql.Shared_Preload_Libraries: loads shared libraries into the server; no variant may set it`,
			`variant[1].args: args[2]: RTS option "-S/etc/shadow" is not one the lab allows`,
		}},
		{"drop-in values", func(e *Experiment) {
			e.Variants[0].DropIn = map[string]string{"CPUAffinity": "0-1", "CPUQuota": "150%", "MemoryMax": "512M",
				"MemoryHigh": "80%", "TasksMax": "infinity", "LimitNOFILE": "1024:65536", "Nice": "-5"}
			e.Variants[1].DropIn = map[string]string{"CPUAffinity": "first", "CPUQuota": "1.5", "MemoryMax": "1 GB",
				"TasksMax": "-1", "LimitNOFILE": "lots", "Nice": "20"}
		}, []string{
			`variant[1].dropin.CPUAffinity: "first" is not a CPU list`,
			`variant[1].dropin.CPUQuota: "1.5" is not a percentage of one CPU (e.g. "50%" or "150%")`,
			`variant[1].dropin.LimitNOFILE: "lots" is not a file limit`,
			`variant[1].dropin.MemoryMax: "1 GB" is not a size`,
			`variant[1].dropin.Nice: "20" is not a nice level (-20..19)`,
			`variant[1].dropin.TasksMax: "-1" is not a number of tasks`,
		}},
		{"db-uri forms", func(e *Experiment) {
			e.Variants[0].PostgREST = map[string]string{"db-uri": "postgres://app@/chinook?host=/run/postgresql"}
			e.Variants[1].PostgREST = map[string]string{"db-uri": "host=localhost dbname=chinook"}
		}, nil},
		{"scenarios", func(e *Experiment) {
			e.Scenarios = []string{"GETSingel", "GETSingle", "GETSingle", "mine"}
			e.Custom = []Scenario{{Name: "mine", Method: "FETCH", Path: "artist", Expect: 42},
				{Name: "POSTBulk", Path: "/x"}, {Name: "unused", Path: "/y"}}
		}, []string{
			`scenario[0].method: "FETCH" is not an HTTP method`,
			`scenario[0].path: "artist" must start with /`,
			`scenario[0].expect: 42 is not an HTTP status`,
			`scenario[1].name: "POSTBulk" is a built-in scenario`,
			`scenarios[0]: unknown scenario "GETSingel" (did you mean "GETSingle"?)`,
			`scenarios[2]: "GETSingle" is listed twice`,
			`scenario[2].name: scenario "unused" is defined but not listed in scenarios`,
		}},
		{"target", func(e *Experiment) { e.Target = Target{Stack: "s", Unit: "postgrest.service", URL: "localhost:3000"} }, []string{
			"target.stack: set either stack",
			"target.config: is required with target.unit",
			`target.url: "localhost:3000" is not an http:// or https:// URL`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := validExperiment()
			tt.change(e)
			errs := e.Validate()
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(tt.want), errs)
			}
			for i, err := range errs {
				if _, ok := err.(*FieldError); !ok {
					t.Errorf("error %d is %T, want *FieldError", i, err)
				}
				if !strings.HasPrefix(err.Error(), tt.want[i]) {
					t.Errorf("error %d:\n got %s\nwant %s...", i, err, tt.want[i])
				}
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"db-pol", "db-pool"}, {"getsingle", "GETSingle"}, {"zzz", ""}, {"log-levl", "log-level"},
		{"db-uir", "db-uri"}, {"modle", "model"},
	} {
		if got := Suggest(c.in, []string{"db-pool", "log-level", "GETSingle", "db-uri", "model"}); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The rts sweep's values become +RTS arguments, checked by the rule every
// argument gets: one that writes a file is an error of the variant it
// generates.
func TestValidateRTSSweep(t *testing.T) {
	e := validExperiment()
	e.Variants = nil
	e.Sweep = &Sweep{SweepAxis: SweepAxis{Key: "rts", Values: []Scalar{"", "-N2 -A64m", "-S/etc/shadow", "-N100000"}, Baseline: ""}}
	e.ExpandSweep()
	var got []string
	for _, err := range e.Validate() {
		got = append(got, err.Error())
	}
	want := []string{
		`variant[2].args: args[1]: RTS option "-S/etc/shadow" is not one the lab allows`,
		`variant[3].args: args[1]: RTS option "-N100000" wants a whole number from 1 to 256 (-N: capabilities; -N alone: one per CPU)`,
	}
	if len(got) != len(want) {
		t.Fatalf("errors:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
}
