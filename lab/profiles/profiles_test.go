package profiles

import (
	"bytes"
	"math"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func st(count int64, frames ...string) lab.Stack { return lab.Stack{Frames: frames, Count: count} }

// run has two variants on one scenario: "pr" spends more in escapeIdent
// and sends one more statement per request.
func fixture() *lab.Run {
	base := &lab.CPUProfile{Samples: 100, PeriodNs: 2e6, Stacks: []lab.Stack{
		st(60, "postgrest", "main", "PostgREST.App.handle", "PostgREST.Query.SqlFragment.$wescapeIdent"),
		st(30, "postgrest", "main", "PostgREST.App.handle"),
		st(10, "postgresql", "PostgresMain", "exec_simple_query"),
	}}
	pr := &lab.CPUProfile{Samples: 100, PeriodNs: 2e6, Stacks: []lab.Stack{
		st(80, "postgrest", "main", "PostgREST.App.handle", "PostgREST.Query.SqlFragment.$wescapeIdent"),
		st(10, "postgrest", "main", "PostgREST.App.handle"),
		st(10, "postgresql", "PostgresMain", "exec_simple_query"),
	}, Dropped: 0}
	sqlBase := []lab.Statement{{Query: "select set_config($1)", Calls: 100, TotalMs: 10}, {Query: "WITH pgrst_source AS (SELECT 1)", Calls: 100, TotalMs: 50}}
	sqlPR := append([]lab.Statement{{Query: "SELECT   extra\n FROM t", Calls: 100, TotalMs: 20}}, sqlBase...)
	return &lab.Run{
		Experiment: lab.Experiment{Scenarios: []string{"GETSingle"}},
		Variants:   []lab.VariantInfo{{Name: "base", Baseline: true}, {Name: "pr"}},
		Trials: []lab.Trial{
			{Variant: "base", Scenario: "GETSingle", Profile: base, SQL: sqlBase, Load: lab.LoadStats{Requests: 100}},
			{Variant: "pr", Scenario: "GETSingle", Profile: pr, SQL: sqlPR, Load: lab.LoadStats{Requests: 100}},
			{Variant: "pr", Scenario: "GETSingle", Profile: pr, Error: "crashed", Load: lab.LoadStats{Requests: 100}},
		},
	}
}

func TestFunctionsSelfAndTotal(t *testing.T) {
	vs := CPU(fixture())
	if len(vs) != 2 || vs[0].Name != "base" || vs[1].Trials != 1 {
		t.Fatalf("variants %+v", vs)
	}
	f := vs[0].Funcs
	if f[0].Name != "PostgREST.Query.SqlFragment.$wescapeIdent" || f[0].Self != 60 || f[0].SelfShare != 0.6 {
		t.Errorf("top function %+v", f[0])
	}
	var handle Func
	for _, x := range f {
		if x.Name == "PostgREST.App.handle" {
			handle = x
		}
	}
	if handle.Self != 30 || handle.Total != 90 || handle.TotalShare != 0.9 || handle.Service != "postgrest" {
		t.Errorf("handle %+v", handle)
	}
	if top := Top(f, 1, true); top[0].Total != 90 {
		t.Errorf("top by total %+v", top)
	}
}

func TestChangesBiggestFirst(t *testing.T) {
	vs := CPU(fixture())
	ch := Changes(vs[0], vs[1], 2)
	if len(ch) != 2 || math.Abs(ch[0].SelfDelta-20) > 1e-9 || math.Abs(ch[1].SelfDelta+20) > 1e-9 {
		t.Fatalf("changes %+v", ch)
	}
	if ch[0].Name != "PostgREST.Query.SqlFragment.$wescapeIdent" || ch[0].BaseSelf != 0.6 || ch[0].VarSelf != 0.8 {
		t.Errorf("first change %+v", ch[0])
	}
}

func TestSQLChangesShowAnExtraQuery(t *testing.T) {
	s := SQLOf(fixture())
	if len(s) != 2 || s[0].Requests != 100 || s[1].Requests != 100 {
		t.Fatalf("sql %+v", s)
	}
	if got := s[1].CallsPerRequest(); math.Abs(got-3) > 1e-9 {
		t.Errorf("pr calls/request %v, want 3", got)
	}
	ch := SQLChanges(s[0], s[1])
	if ch[0].Kind != SQLOnlyVariant || ch[0].Query != "SELECT extra FROM t" || ch[0].Var != 1 || ch[0].VarMeanMs != 0.2 {
		t.Errorf("first change %+v, want the extra statement", ch[0])
	}
	for _, c := range ch[1:] {
		if c.Kind != "" {
			t.Errorf("unchanged statement flagged: %+v", c)
		}
	}
	// The other way round: gone from the variant, and calls/request doubled.
	s[1].Statements[1].PerRequest = 2
	back := SQLChanges(s[1], s[0])
	kinds := map[string]bool{}
	for _, c := range back {
		kinds[c.Kind] = true
	}
	if !kinds[SQLOnlyBaseline] || !kinds[SQLCallsChanged] {
		t.Errorf("kinds %v in %+v", kinds, back)
	}
}

func TestWritePprof(t *testing.T) {
	vs := CPU(fixture())
	var b bytes.Buffer
	if err := WritePprof(&b, vs[1]); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	var total, esc int64
	for _, s := range p.Sample {
		total += s.Value[0]
		if s.Location[0].Line[0].Function.Name == "PostgREST.Query.SqlFragment.$wescapeIdent" {
			esc += s.Value[0]
			if s.Value[1] != s.Value[0]*2e6 {
				t.Errorf("cpu %d for %d samples", s.Value[1], s.Value[0])
			}
		}
	}
	if total != 100 || esc != 80 {
		t.Errorf("pprof: %d samples, %d in escapeIdent", total, esc)
	}
}

func TestModules(t *testing.T) {
	for name, want := range map[string]string{
		"PostgREST.Query.SqlFragment.$wescapeIdent":   "PostgREST.Query.SqlFragment",
		"Network.HTTP.Base.CONNECT":                   "Network.HTTP.Base",
		"GHC.Base..":                                  "GHC.Base",
		"GHC.Base.>>=":                                "GHC.Base",
		"runtime.mallocgc":                            "",
		"[postgrest executable]":                      "",
		"PostgREST.Config.[code after $wparseSecret]": "PostgREST.Config",
		"main": "",
		"github.com/valyala/fasthttp.(*Server).serveConn": "",
	} {
		if got := ModuleOf(name); got != want {
			t.Errorf("ModuleOf(%q) = %q, want %q", name, got, want)
		}
	}
	vs := CPU(fixture())
	m := Modules(vs[0].Funcs)
	if len(m) != 2 || m[0].Module != "PostgREST.Query.SqlFragment" || m[0].Self != 60 || m[1].Module != "PostgREST.App" || m[1].Self != 30 {
		t.Errorf("modules %+v", m)
	}
}

// Executables' code without symbols is not a function: Top leaves it out,
// Unnamed has it.
func TestUnnamed(t *testing.T) {
	funcs := Functions([]lab.Stack{
		st(5, "postgresql", "[postgresql executable]"),
		st(3, "postgresql", "main", "heapgetpage"),
		st(2, "postgrest", "[postgrest executable]", "PostgREST.App.postgrestResponse"),
	}, 10)
	for _, byTotal := range []bool{false, true} {
		for _, f := range Top(funcs, 10, byTotal) {
			if Unsymbolized(f.Name) {
				t.Errorf("Top(byTotal=%v) lists %s", byTotal, f.Name)
			}
		}
	}
	u := Unnamed(funcs)
	if len(u) != 1 || u[0].Name != "[postgresql executable]" || u[0].Service != "postgresql" || u[0].SelfShare != 0.5 {
		t.Errorf("Unnamed %+v", u)
	}
	other := Functions([]lab.Stack{st(1, "postgresql", "[postgresql executable]"), st(9, "postgresql", "main", "heapgetpage")}, 10)
	for _, c := range Changes(Variant{Funcs: funcs}, Variant{Funcs: other}, 10) {
		if Unsymbolized(c.Name) {
			t.Errorf("Changes lists %s", c.Name)
		}
	}
	if Unsymbolized("[libc.so.6]") || Unsymbolized("main") || !Unsymbolized("[postgrest executable]") {
		t.Error("Unsymbolized")
	}
}

// A search trial's window saw every step and its warm-up, while its Load
// holds the best step only: its statements are per the window's requests
// (Trial.WindowRequests), as its statements per request in trials.csv are.
// Divided by the best step's requests they read 16.3 per request where
// trials.csv said 2.00.
func TestSQLOfASearchIsPerTheWindowsRequests(t *testing.T) {
	trial := func(rep int) lab.Trial {
		return lab.Trial{Variant: "base", Scenario: "GETSingle", Rep: rep,
			Load: lab.LoadStats{Model: lab.ModelSearch, Requests: 1225}, Sent: 10000,
			DB:  lab.DBStats{StatementsPerRequest: 2},
			SQL: []lab.Statement{{Query: "select set_config($1)", Calls: 10000}, {Query: "WITH pgrst_source AS (SELECT 1)", Calls: 10000}}}
	}
	run := &lab.Run{Experiment: lab.Experiment{Scenarios: []string{"GETSingle"}},
		Variants: []lab.VariantInfo{{Name: "base", Baseline: true}}, Trials: []lab.Trial{trial(1), trial(2)}}
	s := SQLOf(run)
	if len(s) != 1 || s[0].Requests != 20000 {
		t.Fatalf("sql %+v, want the 2 × 10000 requests the windows saw", s)
	}
	if got, want := s[0].CallsPerRequest(), run.Trials[0].DB.StatementsPerRequest; got != want {
		t.Errorf("%.2f statements per request, want %.2f as the trials say", got, want)
	}
}
