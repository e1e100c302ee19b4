package loadgen

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// docsScenarios is the page that says which request each built-in
// scenario sends. Its block between the markers below is made from
// builtins (docsRequestBlock), like golang.org/x/perf's doc tests keep
// their docs and code together: this test fails when the two disagree and
// prints the block to paste.
const (
	docsScenarios = "../docs/scenarios.md"
	docsBegin     = "<!-- generated from loadgen/scenarios.go by TestDocsScenariosMatchTheCode: begin -->\n"
	docsEnd       = "<!-- generated: end -->\n"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated block of docs/scenarios.md from the code")

func TestDocsScenariosMatchTheCode(t *testing.T) {
	b, err := os.ReadFile(docsScenarios)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	head, rest, ok1 := strings.Cut(doc, docsBegin)
	got, tail, ok2 := strings.Cut(rest, docsEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s: no block between %q and %q", docsScenarios, docsBegin, docsEnd)
	}
	want := docsRequestBlock(t)
	if *updateDocs {
		got, doc = want, head+docsBegin+want+docsEnd+tail
		if err := os.WriteFile(docsScenarios, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got != want {
		t.Errorf("%s disagrees with the built-in scenarios (loadgen/scenarios.go); the block should read:\n%s", docsScenarios, want)
	}
	for _, name := range BuiltinNames() {
		if !strings.Contains(doc, "| "+name+" |") {
			t.Errorf("%s: no row for %s in the hand-written tables", docsScenarios, name)
		}
	}
}

// docsRequestBlock is the generated part of docs/scenarios.md: each
// built-in request exactly, and the POST bodies.
func docsRequestBlock(t *testing.T) string {
	var b strings.Builder
	b.WriteString("\n| scenario | request | headers | body | expect | inserts |\n|---|---|---|---|---|---|\n")
	bodies := map[string]string{}
	for _, s := range builtins {
		for _, r := range s.Requests {
			hdr := "–"
			if len(r.Header) > 0 {
				var hs []string
				for _, k := range slices.Sorted(maps.Keys(r.Header)) {
					hs = append(hs, "`"+k+": "+r.Header[k]+"`")
				}
				hdr = strings.Join(hs, " ")
			}
			body := "–"
			if len(r.Body) > 0 {
				body = docsBodyCell(t, r.Body)
				bodies[s.Name] = string(r.Body)
			}
			ins := "no"
			if s.Inserts {
				ins = "yes"
			}
			fmt.Fprintf(&b, "| %s | `%s %s` | %s | %s | %d | %s |\n", s.Name, r.Method, strings.ReplaceAll(r.Path, "|", `\|`), hdr, body, r.Expect, ins)
		}
	}
	fmt.Fprintf(&b, "\nEvery request also carries `Host` (the target's), `User-Agent: %s` and, with a body, `Content-Length`.\n", userAgent)
	fmt.Fprintf(&b, "After a trial of a scenario that inserts, the lab sends `%s %s` and repeats it until `GET %s` finds no row.\n", CleanupPOST.Method, CleanupPOST.Path, CleanupPOST.Path)
	for _, s := range builtins {
		if body, ok := bodies[s.Name]; ok && !strings.HasPrefix(body, "[") {
			fmt.Fprintf(&b, "\n%s's body, as the template reads (`{seq 100}` is the run-wide counter):\n\n```json\n%s\n```\n", s.Name, body)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// docsBodyCell says what a body is: JSON object or array, its size for
// the first request of a run, and its template fields.
func docsBodyCell(t *testing.T, body []byte) string {
	parts, err := Parts(string(body))
	if err != nil {
		t.Fatal(err)
	}
	first, err := Fill(parts, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	seqs, start := 0, int64(0)
	for _, p := range parts {
		if p.Kind == 's' {
			if seqs == 0 {
				start = p.Lo
			}
			seqs++
		}
	}
	kind := "JSON object"
	if strings.HasPrefix(first, "[") {
		kind = fmt.Sprintf("JSON array of %d objects", strings.Count(first, `"employee_id"`))
	}
	cell := fmt.Sprintf("%s, %d bytes in a run's first request", kind, len(first))
	if len(parts) == 1 && parts[0].Kind == 0 {
		cell = fmt.Sprintf("%s, %d bytes, the same in every request", kind, len(first))
	}
	if seqs > 0 {
		cell += fmt.Sprintf("; `employee_id` = `{seq %d}` (%d a request, from %d on)", start, seqs, start)
	}
	return cell
}
