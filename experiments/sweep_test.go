package experiments

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func variantNames(t *testing.T, name string) ([]string, string) {
	t.Helper()
	e, err := LoadWith(name, fakeKeys)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range e.Variants {
		names = append(names, v.Name)
	}
	return names, e.BaselineVariant().Name
}

// The bundled sweeps generate their variants, named key=value, with the
// named baseline; a value is set where its key says.
func TestBundledSweeps(t *testing.T) {
	for _, tc := range []struct {
		name, base string
		want       []string
	}{
		{"pool-size", "db-pool=10", []string{"db-pool=1", "db-pool=2", "db-pool=5", "db-pool=10", "db-pool=20", "db-pool=50"}},
		{"rts", "rts=default", []string{"rts=-N1", "rts=default", "rts=-N2", "rts=-N2_-qn1", "rts=-A64m"}},
		{"pg-settings", "work_mem=4MB", []string{"work_mem=1MB", "work_mem=2MB", "work_mem=4MB", "work_mem=8MB", "work_mem=16MB", "work_mem=32MB", "work_mem=64MB"}},
	} {
		got, base := variantNames(t, tc.name)
		if !slices.Equal(got, tc.want) || base != tc.base {
			t.Errorf("%s: variants %v baseline %s, want %v baseline %s", tc.name, got, base, tc.want, tc.base)
		}
	}
	e, _ := Load("rts")
	for _, v := range e.Variants {
		if v.PostgREST["log-level"] != "crit" {
			t.Errorf("rts %s: template's log-level missing: %v", v.Name, v.PostgREST)
		}
		if v.Name == "rts=-N2_-qn1" && !slices.Equal(v.Args, []string{"+RTS", "-N2", "-qn1", "-RTS"}) {
			t.Errorf("rts %s: args %q", v.Name, v.Args)
		}
		if v.Name == "rts=default" && len(v.Args) != 0 {
			t.Errorf("rts=default has args %q", v.Args)
		}
	}
	e, _ = Load("pg-settings")
	if e.Variants[0].PostgreSQL["work_mem"] != "1MB" || !e.Sweep.Geometric() {
		t.Errorf("pg-settings: %v, geometric %v", e.Variants[0].PostgreSQL, e.Sweep.Geometric())
	}
}

const sweepHead = `name = "s"
title = "t"
scenarios = ["GETSingle"]
`

// A grid crosses two keys; cost order descending reverses both axes' values.
func TestSweepGridAndRange(t *testing.T) {
	src := sweepHead + `
[sweep]
key = "postgrest.db-pool"
from = 2
to = 6
step = 2
baseline = 4
cheapest = "descending"
[sweep.cross]
key = "dropin.CPUQuota"
values = ["50%", "100%"]
baseline = "100%"
`
	e, err := Parse("g.toml", []byte(src), fakeKeys)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range e.Variants {
		names = append(names, v.Name)
		if v.Baseline != (v.Name == "db-pool=4+CPUQuota=100") {
			t.Errorf("%s: baseline %v", v.Name, v.Baseline)
		}
	}
	want := "db-pool=6+CPUQuota=100 db-pool=6+CPUQuota=50 db-pool=4+CPUQuota=100 db-pool=4+CPUQuota=50 db-pool=2+CPUQuota=100 db-pool=2+CPUQuota=50"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("variants\n %s\nwant\n %s", got, want)
	}
	if v := e.Variants[0]; v.PostgREST["db-pool"] != "6" || v.DropIn["CPUQuota"] != "100%" {
		t.Errorf("first variant %+v", v)
	}
}

// Bad sweeps are reported at the file's line, with the allowed values; a
// bad value is checked like a variant's value and reported at that value.
func TestSweepErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`[sweep]
key = "postgrest.db-pool"
values = [1, "many", 5]
baseline = 5
`, `x.toml:6: sweep.values[1]: postgrest.db-pool (db-pool=many): "many" is not an integer`},
		{`[sweep]
key = "postgrest.db-pool"
values = [1, 2]
baseline = 3
`, `x.toml:7: sweep.baseline: "3" is not one of the values (allowed: "1", "2")`},
		{`[sweep]
key = "pgrst.db-pool"
values = [1, 2]
baseline = 1
`, `x.toml:5: sweep.key: "pgrst.db-pool": the key must start with postgrest., postgresql., env. or dropin., or be rts`},
		{`[sweep]
key = "postgresql.work_mem"
from = 4
to = 1
factor = 0.5
baseline = 4
`, "x.toml:7: sweep.to: 1 must be above from (4)\nx.toml:8: sweep.factor: 0.5 must be > 1 (each value is the previous times factor)"},
		{`[sweep]
key = "dropin.CPUQuota"
values = ["50%", "50%"]
baseline = "50%"
`, `x.toml:6: sweep.values[1]: "50%" is listed twice (values[0])`},
		{`[sweep]
key = "postgrest.db-pool"
values = [1, 2]
baseline = 1
[[variant]]
name = "x"
postgrest = { log-level = "loud" }
`, "x.toml:9: variant[0].name: a sweep names its variants (key=value): leave name out of the [[variant]] every value shares\n" +
			`x.toml:10: variant[0].postgrest.log-level: "loud" is not an allowed value (allowed: crit, error, warn, info, debug)`},
		{`[sweep]
key = "postgrest.db-pool"
values = [1, 2]
baseline = 1
[[variant]]
[[variant]]
`, `x.toml:9: variant[1]: a sweep generates its variants: write at most one [[variant]], without name, holding what every value shares`},
	} {
		_, err := Parse("x.toml", []byte(sweepHead+tc.src), fakeKeys)
		if err == nil {
			t.Errorf("no error for\n%s", tc.src)
			continue
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("error\n%s\nwant\n%s", got, tc.want)
		}
	}
}

// The sweep example in the package doc is a valid grid.
func TestDocSweepParses(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, ref, _ := strings.Cut(string(b), "// # Sweeps\n")
	var src strings.Builder
	for _, line := range strings.Split(ref, "\n") {
		if l, ok := strings.CutPrefix(line, "//\t"); ok {
			src.WriteString(l + "\n")
		} else if src.Len() > 0 && line != "//" {
			break
		}
	}
	e, err := Parse("doc.go", []byte(sweepHead+src.String()), fakeKeys)
	if err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	if len(e.Variants) != 12 || e.BaselineVariant().Name != "db-pool=10+work_mem=4MB" {
		t.Errorf("%d variants, baseline %s", len(e.Variants), e.BaselineVariant().Name)
	}
}
