package loadgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestCompileStaticRequestIsPrebuilt(t *testing.T) {
	tm, err := compile(Request{Method: "GET", Path: "/rpc/add_them?a=1", Header: map[string]string{"Accept": "application/json", "x-lower": "v"}}, "h:1", "/base")
	if err != nil {
		t.Fatal(err)
	}
	if tm.static == nil {
		t.Fatal("static request not pre-built")
	}
	// net/http, an independent parser, reads what fasthttp wrote.
	hr, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(tm.static)))
	if err != nil {
		t.Fatalf("%q: %v", tm.static, err)
	}
	if hr.Method != "GET" || hr.RequestURI != "/base/rpc/add_them?a=1" || hr.Host != "h:1" || hr.ContentLength != 0 ||
		hr.Header.Get("Accept") != "application/json" || hr.Header.Get("User-Agent") != "pgrst-lab-loadgen" ||
		hr.Header.Get("Content-Type") != "" || !bytes.HasSuffix(tm.static, []byte("\r\n\r\n")) {
		t.Errorf("wire %q parsed as %s %s host %q headers %v", tm.static, hr.Method, hr.RequestURI, hr.Host, hr.Header)
	}
	if !bytes.Contains(tm.static, []byte("\r\nx-lower: v\r\n")) {
		t.Errorf("header name not sent as given: %q", tm.static)
	}
	if allocs := testing.AllocsPerRun(100, func() { tm.render(nil, nil, nil) }); allocs != 0 {
		t.Errorf("static render allocates %v", allocs)
	}
}

// A path field and a body field: the request fasthttp wrote is split at
// the fields, and the Content-Length follows the rendered body.
func TestTemplatedRequestIsValidHTTP(t *testing.T) {
	tm, err := compile(Request{Method: "PATCH", Path: "/t?id=eq.{rand 5 5}", Body: []byte(`{"n":{seq 1},"pad":"{rand 1 100000}"}`),
		Header: map[string]string{"Content-Type": "application/json", "Prefer": "return=minimal"}}, "h", "")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	var buf, sc []byte
	for i := range 3 {
		req := tm.render(&buf, &sc, rng)
		hr, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(req)))
		if err != nil {
			t.Fatalf("%q: %v", req, err)
		}
		body, err := io.ReadAll(hr.Body)
		if err != nil {
			t.Fatalf("%q: %v", req, err)
		}
		var o struct {
			N   int
			Pad string
		}
		if err := json.Unmarshal(body, &o); err != nil || o.N != i+1 || o.Pad == "" {
			t.Errorf("body %q: %v %+v", body, err, o)
		}
		if hr.Method != "PATCH" || hr.RequestURI != "/t?id=eq.5" || hr.ContentLength != int64(len(body)) ||
			hr.Header.Get("Prefer") != "return=minimal" || hr.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %q parsed as %s %s length %d", req, hr.Method, hr.RequestURI, hr.ContentLength)
		}
	}
	if allocs := testing.AllocsPerRun(1000, func() { tm.render(&buf, &sc, rng) }); allocs != 0 {
		t.Errorf("templated render allocates %v per request", allocs)
	}
}

func TestRandFieldsStayInRangeAndAreSeeded(t *testing.T) {
	tm, err := compile(Request{Path: "/artist?artist_id=eq.{rand 1 275}"}, "h", "")
	if err != nil {
		t.Fatal(err)
	}
	render := func(seed uint64) []int {
		rng := rand.New(rand.NewPCG(seed, 0))
		var buf, sc []byte
		var out []int
		for i := 0; i < 2000; i++ {
			req := tm.render(&buf, &sc, rng)
			s := string(req)
			v, err := strconv.Atoi(s[strings.Index(s, "eq.")+3 : strings.Index(s, " HTTP/1.1")])
			if err != nil {
				t.Fatalf("bad request %q", s)
			}
			out = append(out, v)
		}
		return out
	}
	a, b, c := render(7), render(7), render(8)
	seen := map[int]bool{}
	for i, v := range a {
		if v < 1 || v > 275 {
			t.Fatalf("value %d out of [1,275]", v)
		}
		if v != b[i] {
			t.Fatal("same seed gave different values")
		}
		seen[v] = true
	}
	if !seen[1] || !seen[275] || len(seen) < 250 {
		t.Errorf("values not uniform over [1,275]: %d distinct, 1:%v 275:%v", len(seen), seen[1], seen[275])
	}
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same > 100 {
		t.Errorf("different seeds gave %d equal values of 2000", same)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	var buf, sc []byte
	tm.render(&buf, &sc, rng)
	if allocs := testing.AllocsPerRun(1000, func() { tm.render(&buf, &sc, rng) }); allocs != 0 {
		t.Errorf("templated render allocates %v per request", allocs)
	}
}

func TestPOSTBodiesAreValidJSONWithUniqueIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"POSTSingle", 1}, {"POSTBulk", 20}} {
		s, err := Builtin(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := compile(s.Requests[0], "h", "")
		if err != nil {
			t.Fatal(err)
		}
		ids := map[float64]bool{}
		var buf, sc []byte
		for i := 0; i < 3; i++ {
			req := tm.render(&buf, &sc, nil)
			head, body, ok := bytes.Cut(req, []byte("\r\n\r\n"))
			if !ok || !bytes.Contains(head, []byte("Content-Length: "+strconv.Itoa(len(body)))) ||
				!bytes.Contains(head, []byte("Content-Type: application/json")) {
				t.Fatalf("%s: bad head %q", tc.name, head)
			}
			var objs []map[string]any
			if tc.n == 1 {
				var o map[string]any
				if err := json.Unmarshal(body, &o); err != nil {
					t.Fatalf("%s: %v in %s", tc.name, err, body)
				}
				objs = append(objs, o)
			} else if err := json.Unmarshal(body, &objs); err != nil {
				t.Fatalf("%s: %v in %s", tc.name, err, body)
			}
			if len(objs) != tc.n {
				t.Fatalf("%s: %d objects, want %d", tc.name, len(objs), tc.n)
			}
			for _, o := range objs {
				if o["title"] != "Load Tester" {
					t.Errorf("%s: title %v", tc.name, o["title"])
				}
				id := o["employee_id"].(float64)
				if ids[id] || id < 100 {
					t.Errorf("%s: employee_id %v repeated or below 100", tc.name, id)
				}
				ids[id] = true
			}
		}
	}
}

func TestBuiltinsAllCompile(t *testing.T) {
	names := BuiltinNames()
	if len(names) != 8+len(thread2020) {
		t.Fatalf("want the 8 benchmark scenarios and the 2020 thread's %d, got %v", len(thread2020), names)
	}
	for _, n := range names {
		s, err := Builtin(strings.ToLower(n))
		if err != nil || s.Name != n {
			t.Fatalf("Builtin(%q): %v %v", n, s.Name, err)
		}
		for _, r := range s.Requests {
			if _, err := compile(r, "h", ""); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		}
	}
	if _, err := Builtin("nope"); err == nil || !strings.Contains(err.Error(), "GETSingle") {
		t.Errorf("unknown scenario error should list the names: %v", err)
	}
}

func TestBadTemplatesAreRejected(t *testing.T) {
	for _, r := range []Request{
		{Path: "artist"},
		{Path: "/a b"},
		{Path: "/a?x={rand 5 1}"},
		{Path: "/a?x={rand 1}"},
		{Path: "/a?x={rand 1 2"},
		{Path: "/a", Body: []byte(`{"id":{seq x}}`)},
		{Path: "/a", Header: map[string]string{"Content-Length": "3"}},
		{Path: "/a", Expect: 42},
		{Path: "/a\x00"},
		{Path: "/a", Header: map[string]string{"X": "a\x00b"}},
	} {
		if _, err := compile(r, "h", ""); err == nil {
			t.Errorf("%+v: accepted", r)
		}
	}
	// JSON braces are literal.
	if _, err := compile(Request{Method: "POST", Path: "/a", Body: []byte(`{"a":{"b":1}}`)}, "h", ""); err != nil {
		t.Error(err)
	}
}

func TestValidateNamesEveryProblem(t *testing.T) {
	errs := Config{Target: Target{URL: "https://x"}, Open: &Open{Rate: -1}, Closed: &Closed{}}.Validate()
	joined := ""
	for _, e := range errs {
		joined += e.Error() + "\n"
	}
	for _, want := range []string{"scheme", "only one load model", "Duration", "Mix"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in:\n%s", want, joined)
		}
	}
	errs = Config{Target: Target{URL: "http://127.0.0.1:1"}, Open: &Open{Rate: 0}, Duration: 1}.Validate()
	joined = ""
	for _, e := range errs {
		joined += e.Error() + "\n"
	}
	if !strings.Contains(joined, "Open.Rate") {
		t.Errorf("rate 0 accepted: %s", joined)
	}
	ok := Config{Target: Target{URL: "http://127.0.0.1:1"}, Closed: &Closed{Connections: 1}, Duration: 1, Mix: simpleMix("/")}
	if errs := ok.Validate(); len(errs) != 0 {
		t.Errorf("valid config rejected: %v", errs)
	}
}
