package loadgen

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// k6Stubs stand in for k6's modules so that node can run the script's
// scenario functions and record the requests they send.
var k6Stubs = map[string]string{
	"package.json":  `{"name":"k6","type":"module","exports":{".":"./index.js","./http":"./http.js","./execution":"./execution.js"}}`,
	"index.js":      "export function check() { return true; }\n",
	"execution.js":  "export default { scenario: { iterationInTest: 0 } };\n",
	"http.js":       "export const sent = [];\nexport default { request(method, url, body, params) { sent.push({ method, url, body, headers: (params || {}).headers || {} }); return { status: 0 }; } };\n",
	"../../run.mjs": "import exec from 'k6/execution';\nimport http from 'k6/http';\nimport { sent } from 'k6/http';\nglobalThis.__ENV = { URL: 'http://k6.test' };\nconst s = await import('./script.mjs');\nconst runs = [];\nfor (const name of Object.keys(s.options.scenarios)) {\n  for (const it of [0, 1]) {\n    exec.scenario.iterationInTest = it;\n    sent.length = 0;\n    s[s.options.scenarios[name].exec]();\n    runs.push({ name, it, sent: sent.slice() });\n  }\n}\nsent.length = 0;\nif (s.teardown) s.teardown();\nconsole.log(JSON.stringify({ options: s.options, runs, teardown: sent }));\n",
}

type k6Sent struct {
	Method, URL string
	Body        *string
	Headers     map[string]string
}

// The k6 script is JavaScript node accepts, and running its scenario
// functions (k6's modules stubbed) sends each built-in request as the lab
// sends it: method, headers, the path with its random id in range, the
// body with its employee_ids numbered per iteration; with the
// benchmark's thresholds and the cleanup in teardown.
func TestK6ScriptSendsTheLabsRequests(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		labtest.Need(t, "node (Debian's nodejs) to check the k6 script: %v", err)
	}
	dir := t.TempDir()
	var script bytes.Buffer
	if err := K6Script(&script, DefaultK6Options, nil); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"script.mjs": script.String()}
	for name, text := range k6Stubs {
		files[filepath.Join("node_modules", "k6", name)] = text
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(node, "--check", filepath.Join(dir, "script.mjs")).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s\n%s", err, out, script.String())
	}
	cmd := exec.Command(node, filepath.Join(dir, "run.mjs"))
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run the script's functions: %v\n%s", err, out)
	}
	var got struct {
		Options struct {
			Scenarios  map[string]map[string]any
			Thresholds map[string][]string
		}
		Runs []struct {
			Name string
			It   int64
			Sent []k6Sent
		}
		Teardown []k6Sent
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Options.Scenarios) != len(builtins) || len(got.Runs) != 2*len(builtins) {
		t.Fatalf("%d scenarios, %d runs, want %d and %d", len(got.Options.Scenarios), len(got.Runs), len(builtins), 2*len(builtins))
	}
	for _, run := range got.Runs {
		s, err := Builtin(run.Name)
		if err != nil || len(run.Sent) != 1 {
			t.Fatalf("%s: %v, sent %d requests, want 1", run.Name, err, len(run.Sent))
		}
		r, sent := s.Requests[0], run.Sent[0]
		if sent.Method != r.Method || !equalHeaders(sent.Headers, r.Header) {
			t.Errorf("%s: %s with %v, want %s with %v", s.Name, sent.Method, sent.Headers, r.Method, r.Header)
		}
		if !matchesPath(t, r.Path, strings.TrimPrefix(sent.URL, "http://k6.test")) || !strings.HasPrefix(sent.URL, "http://k6.test/") {
			t.Errorf("%s: URL %s is not http://k6.test + %s", s.Name, sent.URL, r.Path)
		}
		parts, _ := Parts(string(r.Body))
		seqs := int64(strings.Count(string(r.Body), "{seq"))
		want, err := Fill(parts, 0, run.It*seqs)
		if err != nil {
			t.Fatal(err)
		}
		if body := deref(sent.Body); body != want {
			t.Errorf("%s iteration %d: body\n%s\nwant\n%s", s.Name, run.It, body, want)
		}
		sc := got.Options.Scenarios[s.Name]
		if sc["executor"] != "constant-arrival-rate" || sc["exec"] != s.Name {
			t.Errorf("%s: scenario options %v", s.Name, sc)
		}
		for _, th := range []string{"http_req_failed{scenario:" + s.Name + "}", "http_req_duration{scenario:" + s.Name + "}"} {
			if len(got.Options.Thresholds[th]) != 1 {
				t.Errorf("%s: no threshold %s", s.Name, th)
			}
		}
	}
	if len(got.Teardown) != 1 || got.Teardown[0].Method != CleanupPOST.Method || got.Teardown[0].URL != "http://k6.test"+CleanupPOST.Path {
		t.Errorf("teardown sent %+v, want %s %s", got.Teardown, CleanupPOST.Method, CleanupPOST.Path)
	}
}

// matchesPath reports whether path is tmpl with each {rand LO HI} an
// integer in [LO, HI].
func matchesPath(t *testing.T, tmpl, path string) bool {
	parts, err := Parts(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	re := "^"
	for _, p := range parts {
		if p.Kind == 0 {
			re += regexp.QuoteMeta(p.Text)
		} else {
			re += `(-?\d+)`
		}
	}
	m := regexp.MustCompile(re + "$").FindStringSubmatch(path)
	if m == nil {
		return false
	}
	i := 1
	for _, p := range parts {
		if p.Kind == 'r' {
			v, _ := strconv.ParseInt(m[i], 10, 64)
			if v < p.Lo || v > p.Hi {
				return false
			}
		}
		if p.Kind != 0 {
			i++
		}
	}
	return true
}

func equalHeaders(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
