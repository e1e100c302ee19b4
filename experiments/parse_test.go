package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func parseFile(t *testing.T, name string) (*lab.Experiment, error) {
	t.Helper()
	path := filepath.Join("testdata", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(path, src, fakeKeys)
}

// Bad files report every problem, each on its own line with file:line, in
// line order. The expected lines are exact.
func TestParseBadFiles(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"bad-syntax.toml", []string{
			"testdata/bad-syntax.toml:5: strings cannot contain newlines",
		}},
		{"bad-duplicate.toml", []string{
			"testdata/bad-duplicate.toml:6: Key 'variant.name' has already been defined.",
		}},
		{"bad-keys.toml", []string{
			`testdata/bad-keys.toml:3: unknown key "alow_unknown_keys" (did you mean "allow_unknown_keys"?)`,
			`testdata/bad-keys.toml:6: load: unknown key "modle" (did you mean "model"?)`,
			`testdata/bad-keys.toml:8: unknown key "trails" (did you mean "trials"?)`,
			`testdata/bad-keys.toml:18: variant[1]: unknown key "bsaeline" (did you mean "baseline"?)`,
			`testdata/bad-keys.toml:20: variant[1].postgrest: unknown key "db-pol" (did you mean "db-pool"?)`,
			`testdata/bad-keys.toml:21: variant[1].postgrest.log-level: "loud" is not an allowed value (allowed: crit, error, warn, info, debug)`,
			`testdata/bad-keys.toml:23: variant[1].postgresql."synchronous commit": is not a PostgreSQL setting name (an identifier like shared_buffers or auto_explain.log_min_duration)`,
		}},
		{"bad-types.toml", []string{
			`testdata/bad-types.toml:1: name: must be a string, not integer 7`,
			`testdata/bad-types.toml:2: scenarios: must be an array, not string "GETSingle"`,
			`testdata/bad-types.toml:5: load.duration: must be a duration string like "10s" or "500ms", not integer 10 (a bare number would be nanoseconds)`,
			`testdata/bad-types.toml:6: load.warmup: "2 seconds" is not a duration (use a number with a unit: ns, us, ms, s, m, h; e.g. "10s")`,
			`testdata/bad-types.toml:7: load.connections: must be an integer, not string "ten"`,
			`testdata/bad-types.toml:8: load.rate: must be a number, not boolean true`,
			`testdata/bad-types.toml:11: trials.alpha: must be a number, not string "0.05"`,
			`testdata/bad-types.toml:15: variant[0].baseline: must be true or false, not string "yes"`,
			`testdata/bad-types.toml:16: variant[0].args: must be an array, not string "+RTS -N2 -RTS"`,
			`testdata/bad-types.toml:17: variant[0].postgrest.db-pool: must be a string, number or boolean, not an array`,
			`testdata/bad-types.toml:18: variant[0].env: must be a table of key = value, not string "GHCRTS=-qn1"`,
			`testdata/bad-types.toml:21: scenario[0].name: scenario "x" is defined but not listed in scenarios`,
			`testdata/bad-types.toml:23: scenario[0].expect: must be an integer, not float 200.5`,
		}},
		{"bad-design.toml", []string{
			`testdata/bad-design.toml:5: trials.analysis: "pairs" is not an analysis (allowed: paired, unpaired; unset = paired when every round is complete)`,
			`testdata/bad-design.toml:6: trials.sequential: must be true or false, not string "yes"`,
			`testdata/bad-design.toml:7: trials.interference: 2 must be in (0, 1]: the share of the machine's CPUs other work may use during a trial (1 disables the check)`,
			`testdata/bad-design.toml:14: load.utilisation: 1.5 must be in (0, 1), the share of the baseline's capacity to offer (e.g. 0.65)`,
			`testdata/bad-design.toml:18: partition.postgrest: CPU 0 is also the generator's: PostgREST and the generator must not share CPUs (PostgreSQL may share with either)`,
		}},
		{"bad-values.toml", []string{
			`testdata/bad-values.toml:2: scenarios[0]: unknown scenario "GETSingel" (did you mean "GETSingle"?)`,
			`testdata/bad-values.toml:2: scenarios[3]: "GETSingle" is listed twice`,
			`testdata/bad-values.toml:5: target.stack: set either stack (a local stack) or unit/config/url (an existing server), not both`,
			`testdata/bad-values.toml:6: target.url: "localhost:3000" is not an http:// or https:// URL`,
			`testdata/bad-values.toml:8: load.rate: must be > 0 requests/s for model "open"`,
			`testdata/bad-values.toml:10: load.duration: 0s must be > 0 (e.g. "10s")`,
			`testdata/bad-values.toml:11: load.warmup: -1s must be >= 0`,
			`testdata/bad-values.toml:14: trials.min: 1: need at least 2 trials per variant and scenario for a verdict (5 or more recommended)`,
			`testdata/bad-values.toml:15: trials.max: 0 must be >= trials.min (1)`,
			`testdata/bad-values.toml:16: trials.order: "abab" is not a trial order (allowed: interleaved, random, duet)`,
			`testdata/bad-values.toml:17: trials.alpha: 0.9 must be in (0, 0.5] (e.g. 0.05)`,
			`testdata/bad-values.toml:22: variant[0].dropin.CPUAfinity: is not an allowed drop-in setting (did you mean "CPUAffinity"?)`,
			`testdata/bad-values.toml:22: variant[0].dropin.Restart: is not an allowed drop-in setting (allowed: AllowedCPUs, CPUAffinity, CPUQuota, CPUWeight, LimitNOFILE, MemoryHigh, MemoryMax, Nice, TasksMax)`,
			`testdata/bad-values.toml:25: variant[1].name: "a" is already the name of variant[0]`,
			`testdata/bad-values.toml:26: variant[1].baseline: only one variant can be the baseline (variant[0] "a" already is)`,
			`testdata/bad-values.toml:27: variant[1].binary: "postgrest" must be an absolute path or a $(VAR) placeholder`,
			`testdata/bad-values.toml:28: variant[1].postgrest.db-uri: "<redacted>": use "tcp", "unix" (the lab derives the URI), a postgres:// URI or a key=value connection string`,
			`testdata/bad-values.toml:32: scenario[0].method: "FETCH" is not an HTTP method (allowed: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)`,
			`testdata/bad-values.toml:33: scenario[0].path: "artist" must start with / (it is appended to the target's URL)`,
			`testdata/bad-values.toml:35: scenario[0].body_file: set body or body_file, not both`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			e, err := parseFile(t, tt.file)
			if err == nil {
				t.Fatalf("no error; decoded %+v", e)
			}
			if e != nil {
				t.Errorf("got an experiment along with the errors")
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(errs) {
				t.Errorf("Error() has %d lines for %d errors", len(got), len(errs))
			}
			for i := 0; i < max(len(got), len(tt.want)); i++ {
				g, w := "", ""
				if i < len(got) {
					g = got[i]
				}
				if i < len(tt.want) {
					w = tt.want[i]
				}
				if g != w {
					t.Errorf("line %d:\n got %s\nwant %s", i, g, w)
				}
			}
			for _, e := range errs {
				var pe *Error
				if !errors.As(e, &pe) || pe.Line == 0 {
					t.Errorf("%v: not an *Error with a line", e)
				}
			}
		})
	}
}

func TestParseUnknownKeyIsTyped(t *testing.T) {
	_, err := parseFile(t, "bad-keys.toml")
	var uk *UnknownKey
	if !errors.As(err, &uk) || uk.Key != "alow_unknown_keys" || uk.Suggest != "allow_unknown_keys" {
		t.Fatalf("errors.As(UnknownKey) = %+v from %v", uk, err)
	}
}

func TestParseGoodFiles(t *testing.T) {
	base := lab.Experiment{}
	base.Defaults()
	tests := []struct {
		file string
		want func() lab.Experiment
	}{
		{"good-minimal.toml", func() lab.Experiment {
			e := base
			e.Name, e.Scenarios = "minimal", []string{"GETSingle"}
			e.Variants = []lab.Variant{{Name: "default"}}
			return e
		}},
		{"good-zero-values.toml", func() lab.Experiment {
			e := base
			e.Name, e.Scenarios = "zero", []string{"POSTBulk"}
			e.Load.Warmup, e.Load.Connections = 0, 3 // written 0 is kept
			e.Trials.Min, e.Trials.Max = 12, 12      // the default max follows min
			e.Variants = []lab.Variant{{Name: "only"}}
			return e
		}},
		{"good-full.toml", func() lab.Experiment {
			return lab.Experiment{
				Name:             "full",
				Title:            "Every key [with brackets] = and # in a string",
				Description:      "A multi-line description:\n[not a table]\nkey = \"not a key\"\n",
				Scenarios:        []string{"GETSingle", "ArtistPage"},
				AllowUnknownKeys: true,
				Target: lab.Target{Unit: "postgrest.service", Config: "/etc/postgrest/postgrest.conf",
					URL: "http://127.0.0.1:3000", AdminURL: "http://127.0.0.1:3001",
					PGUnit: "postgresql.service", PGURI: "postgres://postgres@/postgres"},
				Load: lab.Load{Model: lab.ModelSearch, Connections: 10, Timeout: 5 * time.Second, Threads: 2,
					Duration: 90 * time.Second, Warmup: 0,
					Limit: lab.Limit{P99: 50 * time.Millisecond, MaxErrors: new(0.001), MaxDropped: new(0.01), MinRate: 100, MaxRate: 5000.5}},
				Trials: lab.Trials{Min: 3, Max: 12, Order: lab.OrderRandom, Seed: 42, Alpha: 0.1},
				Variants: []lab.Variant{
					{Name: "base", Baseline: true, PostgREST: map[string]string{
						"db-uri": "postgres://authenticator@/chinook?host=/run/postgresql", "db-pool": "10",
						"db-prepared-statements": "false", "server-timing-enabled": "true", "some-new-key": "1.5"}},
					{Name: "tuned", Description: `literal \ string`, Binary: "/opt/postgrest/bin/postgrest",
						Args:       []string{"+RTS", "-N2", "-RTS"},
						PostgREST:  map[string]string{"db-pool": "20"},
						PostgreSQL: map[string]string{"shared_buffers": "256MB", "auto_explain.log_min_duration": "0"},
						Env:        map[string]string{"GHCRTS": "-qn1"},
						DropIn:     map[string]string{"CPUAffinity": "1", "MemoryMax": "512M", "Nice": "-5"}},
				},
				Custom: []lab.Scenario{{Name: "ArtistPage", Method: "POST", Path: "/rpc/artist_page?id={rand 1 275}",
					Header: map[string]string{"Prefer": "count=exact", "X-Trace": "1"},
					Body:   `{"limit": 10}`, Expect: 200, Weight: 2}},
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			e, err := parseFile(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.want(); !reflect.DeepEqual(*e, want) {
				t.Errorf("decoded\n %+v\nwant\n %+v", *e, want)
			}
		})
	}
}

func TestLoadByNameAndPath(t *testing.T) {
	e, err := Load("testdata/good-minimal.toml")
	if err != nil {
		t.Fatal(err)
	}
	if e.Source != "testdata/good-minimal.toml" || e.Name != "minimal" {
		t.Errorf("Load(path): Source %q, Name %q", e.Source, e.Name)
	}
	_, err = Load("socket-vs-tpc")
	if err == nil || !strings.Contains(err.Error(), `no bundled experiment "socket-vs-tpc" (did you mean "socket-vs-tcp"?)`) {
		t.Errorf("Load(typo) = %v", err)
	}
	_, err = Load("testdata/bad-keys.toml")
	if err == nil || !strings.HasPrefix(err.Error(), "testdata/bad-keys.toml:3: ") {
		t.Errorf("Load(bad path) = %v", err)
	}
	if _, err := Load("testdata/missing.toml"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Load(missing) = %v", err)
	}
	src, err := Source("aa")
	if err != nil || !strings.Contains(string(src), `name = "aa"`) {
		t.Errorf("Source(aa) = %.40q, %v", src, err)
	}
}

// Without a validator, PostgREST keys are only checked for their shape.
func TestParseWithoutValidator(t *testing.T) {
	src := []byte("name = \"x\"\nscenarios = [\"GETSingle\"]\n[[variant]]\nname = \"a\"\npostgrest = { db-pol = 1, DB_POOL = 2 }\n")
	_, err := Parse("x.toml", src, nil)
	want := `x.toml:5: variant[0].postgrest.DB_POOL: is not a PostgREST config key (lower-case words joined by '-', e.g. db-pool)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestParsePlaceholderSyntax(t *testing.T) {
	src := []byte(`name = "x"
scenarios = ["GETSingle"]
[[variant]]
name = "a"
binary = "$(PGRST"
args = ["+RTS",
  "-N$2", "-RTS"]
`)
	_, err := Parse("x.toml", src, nil)
	want := `x.toml:5: variant[0].binary: "$(PGRST": unterminated $(` + "\n" +
		`x.toml:7: variant[0].args[1]: "-N$2": a literal $ must be written $$ (a variable: $(NAME))`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestParseTableKinds(t *testing.T) {
	src := []byte("name = \"x\"\nscenarios = [\"GETSingle\"]\n[[load]]\nmodel = \"open\"\n[variant]\nname = \"a\"\n")
	_, err := Parse("x.toml", src, nil)
	want := "x.toml:3: load: must be a table ([load]), not an array of tables ([[load]])\n" +
		"x.toml:5: variant: must be an array of tables ([[variant]]), not a table"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// The test design keys decode; sequential is on unless set to false.
func TestParseDesign(t *testing.T) {
	base := "name = \"x\"\nscenarios = [\"GETSingle\"]\n[[variant]]\nname = \"a\"\n"
	e, err := Parse("x.toml", []byte(base), nil)
	if err != nil || !e.Trials.IsSequential() || e.Trials.Analysis != "" {
		t.Fatalf("defaults: %v, sequential %v, analysis %q", err, e != nil && e.Trials.IsSequential(), e.Trials.Analysis)
	}
	e, err = Parse("x.toml", []byte(base+"[trials]\nanalysis = \"unpaired\"\nsequential = false\n"), nil)
	if err != nil || e.Trials.IsSequential() || e.Trials.Analysis != "unpaired" {
		t.Fatalf("set: %v, sequential %v, analysis %q", err, e != nil && e.Trials.IsSequential(), e.Trials.Analysis)
	}
}
