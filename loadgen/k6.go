package loadgen

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// K6Options shape the k6 script K6Script writes: the server, and each
// scenario's constant arrival rate, run one after the other.
type K6Options struct {
	URL      string        // base URL, e.g. http://localhost:3000 (the script reads __ENV.URL first)
	Rate     int           // requests per second of each scenario
	Duration time.Duration // of each scenario
	Pause    time.Duration // between two scenarios
}

// DefaultK6Options are the 2020 benchmark's: a minute per scenario,
// preAllocatedVUs 100, maxVUs 600 (in the script).
var DefaultK6Options = K6Options{URL: "http://localhost:3000", Rate: 100, Duration: time.Minute, Pause: 5 * time.Second}

// k6Thresholds are the benchmark's, per scenario: under 10% failed
// requests, p(95) under 1 s.
var k6Thresholds = []string{"http_req_failed{scenario:%s}': ['rate<0.1']", "http_req_duration{scenario:%s}': ['p(95)<1000']"}

// K6Script writes a k6 script (JavaScript) that sends the named built-in
// scenarios' requests as the lab does: the same method, path, headers and
// body, from the one definition (Parts), {rand LO HI} as a uniform integer
// drawn per request and {seq START} numbered per iteration across the
// run's virtual users. Each scenario is a constant-arrival-rate k6
// scenario with the benchmark's thresholds; after scenarios that insert,
// teardown sends CleanupPOST.
func K6Script(w io.Writer, o K6Options, names []string) error {
	if len(names) == 0 {
		names = BuiltinNames()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// k6 script written by `lab k6`: the pgrst-lab built-in scenarios (docs/scenarios.md).\n")
	fmt.Fprintf(&b, "// Run: k6 run -e URL=%s script.js\nimport http from 'k6/http';\nimport exec from 'k6/execution';\nimport { check } from 'k6';\n\n", o.URL)
	fmt.Fprintf(&b, "const URL = __ENV.URL || %s;\n", jsString(o.URL))
	b.WriteString("function rand(lo, hi) { return lo + Math.floor(Math.random() * (hi - lo + 1)); }\n\n")
	var scen, thr []string
	inserts := false
	start := time.Duration(0)
	for _, name := range names {
		s, err := Builtin(name)
		if err != nil {
			return fmt.Errorf("k6: %w", err)
		}
		inserts = inserts || s.Inserts
		if err := k6Func(&b, s); err != nil {
			return err
		}
		scen = append(scen, fmt.Sprintf("    %s: { executor: 'constant-arrival-rate', exec: %s, rate: %d, timeUnit: '1s', duration: '%ds', startTime: '%ds', preAllocatedVUs: 100, maxVUs: 600 },",
			s.Name, jsString(s.Name), o.Rate, int(o.Duration.Seconds()), int(start.Seconds())))
		for _, t := range k6Thresholds {
			thr = append(thr, "    '"+fmt.Sprintf(t, s.Name)+",")
		}
		start += o.Duration + o.Pause
	}
	fmt.Fprintf(&b, "export const options = {\n  scenarios: {\n%s\n  },\n  thresholds: {\n%s\n  },\n};\n", strings.Join(scen, "\n"), strings.Join(thr, "\n"))
	if inserts {
		c := CleanupPOST
		fmt.Fprintf(&b, "\nexport function teardown() {\n  http.request(%s, URL + %s, null);\n}\n", jsString(c.Method), jsString(c.Path))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// k6Func writes the function of one scenario: its requests round-robin
// by iteration, each checked for its expected status.
func k6Func(b *strings.Builder, s Scenario) error {
	fmt.Fprintf(b, "export function %s() {\n  const it = exec.scenario.iterationInTest;\n", s.Name)
	fmt.Fprintf(b, "  const i = it %% %d;\n", len(s.Requests))
	for i, r := range s.Requests {
		path, err := k6Expr(r.Path, 0)
		if err != nil {
			return fmt.Errorf("k6: %s: path: %w", s.Name, err)
		}
		body := "null"
		if len(r.Body) > 0 {
			parts, err := Parts(string(r.Body))
			if err != nil {
				return fmt.Errorf("k6: %s: body: %w", s.Name, err)
			}
			seqs := 0
			for _, p := range parts {
				if p.Kind == 's' {
					seqs++
				}
			}
			if body, err = k6Expr(string(r.Body), seqs); err != nil {
				return fmt.Errorf("k6: %s: body: %w", s.Name, err)
			}
		}
		hdr, _ := json.Marshal(r.Header)
		if r.Header == nil {
			hdr = []byte("{}")
		}
		fmt.Fprintf(b, "  if (i === %d) {\n    const res = http.request(%s, URL + %s, %s, { headers: %s });\n", i, jsString(r.Method), path, body, hdr)
		fmt.Fprintf(b, "    check(res, { 'status is %d': (r) => r.status === %d });\n  }\n", r.Expect, r.Expect)
	}
	b.WriteString("}\n\n")
	return nil
}

// k6Expr is a JavaScript expression for a template: string literals
// joined with rand(LO, HI) for {rand} and (START + it*seqs + k) for the
// k-th {seq} of a request (it: the iteration across all virtual users).
func k6Expr(tmpl string, seqs int) (string, error) {
	parts, err := Parts(tmpl)
	if err != nil {
		return "", err
	}
	var out []string
	k := 0
	for _, p := range parts {
		switch p.Kind {
		case 0:
			out = append(out, jsString(p.Text))
		case 'r':
			out = append(out, fmt.Sprintf("rand(%d, %d)", p.Lo, p.Hi))
		case 's':
			out = append(out, fmt.Sprintf("(%d + it * %d + %d)", p.Lo, seqs, k))
			k++
		default:
			return "", fmt.Errorf("a {jwt} field has no k6 form")
		}
	}
	if len(out) == 0 {
		return `""`, nil
	}
	return strings.Join(out, " + "), nil
}

// jsString is s as a JavaScript string literal (JSON's, which JavaScript
// reads the same, U+2028 and U+2029 escaped).
func jsString(s string) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
