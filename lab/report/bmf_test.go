package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// bmfSlug is what Bencher's slugify leaves as it is (lowercase letters,
// digits, single dashes): a measure key of that shape is read as a slug.
var bmfSlug = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var bmfUUID = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// checkBMF checks a file against the Bencher Metric Format as Bencher's
// docs state it (services/console/src/chunks/docs-reference/
// bencher-metric-format in github.com/bencherdev/bencher):
//
// The JSON schema (https://bencher.dev/bmf.json):
//
//	"type": "object",
//	"patternProperties": { ".+": { "type": "object",
//	    "patternProperties": { ".+": { "type": "object",
//	        "properties": { "value": {"type": "number"}, "lower_value": {"type": "number"},
//	                        "upper_value": {"type": "number"} },
//	        "required": ["value"] } } } }
//
// "The `value` is required for all Metrics while the `lower_value` and
// `upper_value` are independently optional." Benchmark names: "max length
// 1024 characters", and "The order of precedence for identifying a
// Benchmark is ... UUID ... slug (max length 64 characters) ... name":
// lab's names must read as names. Measures: "slug (max length 64
// characters)". The lab's own rule on top: lower_value <= value <=
// upper_value (an interval around the median).
func checkBMF(t *testing.T, data []byte) map[string]map[string]map[string]float64 {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("BMF: not a JSON object: %v", err)
	}
	out := map[string]map[string]map[string]float64{}
	for name, raw := range top {
		if name == "" || len(name) > 1024 || bmfUUID.MatchString(name) || bmfSlug.MatchString(name) {
			t.Errorf("benchmark %q: want a name of 1 to 1024 characters that is neither a UUID nor a slug", name)
		}
		var measures map[string]json.RawMessage
		if err := json.Unmarshal(raw, &measures); err != nil {
			t.Errorf("benchmark %q: not an object: %v", name, err)
			continue
		}
		if len(measures) == 0 {
			t.Errorf("benchmark %q: no measures", name)
		}
		out[name] = map[string]map[string]float64{}
		for slug, raw := range measures {
			if len(slug) > 64 || !bmfSlug.MatchString(slug) {
				t.Errorf("%s: measure %q is not a slug of at most 64 characters", name, slug)
			}
			var metric map[string]any
			if err := json.Unmarshal(raw, &metric); err != nil {
				t.Errorf("%s %s: not an object: %v", name, slug, err)
				continue
			}
			vals := map[string]float64{}
			for k, v := range metric {
				f, ok := v.(float64)
				switch {
				case k != "value" && k != "lower_value" && k != "upper_value":
					t.Errorf("%s %s: unknown key %q", name, slug, k)
				case !ok:
					t.Errorf("%s %s: %s is %v, not a number", name, slug, k, v)
				}
				vals[k] = f
			}
			v, ok := vals["value"]
			if !ok {
				t.Errorf("%s %s: no value (required)", name, slug)
			}
			lo, hasLo := vals["lower_value"]
			hi, hasHi := vals["upper_value"]
			if hasLo != hasHi || (hasLo && !(lo <= v && v <= hi)) {
				t.Errorf("%s %s: want lower_value <= value <= upper_value, both or neither: %v", name, slug, vals)
			}
			out[name][slug] = vals
		}
	}
	return out
}

func bmf(t *testing.T, run *lab.Run) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.BMF(&b, run); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestBMFGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		run  *lab.Run
	}{{"bmf.json.golden", fixtureRun("closed")}, {"bmf-real.json.golden", readRealRun(t)}} {
		got := bmf(t, c.run)
		golden(t, c.name, got)
		parsed := checkBMF(t, got)
		// value is the median of the valid trials; latency is p99 in ns.
		for _, sc := range stats.ScenarioNames(c.run) {
			for _, vn := range stats.VariantNames(c.run) {
				for _, m := range []struct{ metric, slug string }{{"rate", "throughput"}, {"p99", "latency"}, {"cpu", "cpu-per-request"}} {
					met, _ := lab.MetricByName(m.metric)
					var vs []float64
					for _, tr := range stats.TrialsOf(c.run, vn, sc) {
						if v, ok := met.Of(tr); ok && tr.Error == "" {
							vs = append(vs, v)
						}
					}
					s, _ := stats.Summarize(vs)
					want := s.Median
					if m.slug == "latency" {
						want *= 1e6
					}
					got := parsed[report.BMFName(sc, vn)][m.slug]
					if got == nil || got["value"] != want {
						t.Errorf("%s: %s %s = %v, want value %v", c.name, report.BMFName(sc, vn), m.slug, got, want)
					}
				}
			}
		}
	}
}

// TestBMFOmits: a measure a run lacks is left out, an unbounded interval
// gives no lower_value and upper_value, a benchmark without trials is
// left out, and an empty run is an empty object.
func TestBMFOmits(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "few", Scenarios: []string{"GETSingle", "GETAll"}, Trials: 2, Noise: 0.02, Seed: 3,
		Variants: []statstest.Variant{{Name: "a", Baseline: true, Rate: 1000, P50Ms: 2}}})
	for i := range run.Trials {
		t := &run.Trials[i]
		t.Server.CPUSeconds, t.Database.CPUSeconds = 0, 0
		if t.Scenario == "GETAll" {
			t.Error = "not ready after 30s"
		}
	}
	got := checkBMF(t, bmf(t, run))
	want := map[string]map[string]map[string]float64{"GETSingle/a": {"throughput": nil, "latency": nil}}
	if fmt.Sprint(keys2(got)) != fmt.Sprint(keys2(want)) {
		t.Errorf("benchmarks and measures %v, want %v", keys2(got), keys2(want))
	}
	for _, m := range got["GETSingle/a"] {
		if _, ok := m["lower_value"]; ok {
			t.Errorf("two trials have no 95%% interval, yet lower_value is set: %v", m)
		}
	}
	empty := statstest.Run(statstest.Spec{Experiment: "none", Scenarios: []string{"GETSingle"}, Trials: 1, Seed: 1,
		Variants: []statstest.Variant{{Name: "a", Baseline: true, Rate: 1000, P50Ms: 2}}})
	empty.Trials = nil
	if s := strings.TrimSpace(string(bmf(t, empty))); s != "{}" {
		t.Errorf("a run without trials: %s, want {}", s)
	}
}

func keys2(m map[string]map[string]map[string]float64) []string {
	var out []string
	for b, ms := range m {
		for s := range ms {
			out = append(out, b+" "+s)
		}
	}
	slices.Sort(out)
	return out
}
