package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// The examples in README.md and docs/*.md are run, as benchstat's
// doc_test.go runs its documentation.
//
// A tested example is a fenced block whose info string is "console":
//
//	```console
//	$ lab validate socket-vs-tcp
//	socket-vs-tcp: OK (...)
//	```
//
// Every line starting with "$ lab " is a command, run with the lab binary
// built for the test, in a fresh temporary directory that holds a copy of
// docs/examples/ (so "docs/examples/..." paths work as they do from the
// repository's root); the lines up to the next command are its output
// (stdout and stderr as they interleave; a failing command ends with main's
// "lab: ..." line). A line "..." in the expected output stands for any
// number of lines. Output is compared after normalising what legitimately
// varies: the version line of lab version, the temporary
// directory, trailing spaces.
//
// A block preceded by the line "<!-- docs-test: file PATH -->" must be
// exactly the file PATH (relative to the repository's root), so that a
// file shown in the docs and the one the examples run stay the same.
//
// Other fenced blocks (```, ```text, ```toml, ```sh, ...) are not run:
// measured output belongs in docs/notebook/, stamped with its date and
// commit.

const repoRoot = "../.."

// docExample is one tested block: where it is, its commands and outputs.
type docExample struct {
	file string
	line int // of the opening fence
	cmds []docCommand
}

type docCommand struct {
	line int
	args []string
	want []string
}

// docFiles are the files whose examples are run.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(repoRoot, "README.md")}
	more, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(files, more...)
}

var fileMarker = regexp.MustCompile(`^<!-- docs-test: file (\S+) -->$`)

// parseDocExamples finds the console blocks of a Markdown file and checks
// the blocks marked as copies of a file.
func parseDocExamples(t *testing.T, file string, src []byte) []docExample {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	var out []docExample
	for i := 0; i < len(lines); i++ {
		fence, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		start := i
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			t.Errorf("%s:%d: unclosed fenced block", file, start+1)
			break
		}
		if start > 0 {
			if m := fileMarker.FindStringSubmatch(lines[start-1]); m != nil {
				checkDocFileCopy(t, fmt.Sprintf("%s:%d", file, start+1), m[1], body)
			}
		}
		if strings.TrimSpace(fence) != "console" {
			continue
		}
		ex := docExample{file: file, line: start + 1}
		for j, l := range body {
			if cmd, ok := strings.CutPrefix(l, "$ "); ok {
				args := strings.Fields(cmd)
				if len(args) == 0 || args[0] != "lab" {
					t.Errorf("%s:%d: a console example runs only lab commands, not %q", file, start+2+j, cmd)
					continue
				}
				ex.cmds = append(ex.cmds, docCommand{line: start + 2 + j, args: args[1:]})
				continue
			}
			if len(ex.cmds) == 0 {
				t.Errorf("%s:%d: a console block starts with a \"$ lab ...\" line", file, start+2+j)
				break
			}
			c := &ex.cmds[len(ex.cmds)-1]
			c.want = append(c.want, l)
		}
		out = append(out, ex)
	}
	return out
}

// checkDocFileCopy fails when a block marked as a copy of path differs from it.
func checkDocFileCopy(t *testing.T, where, path string, body []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Errorf("%s: the block is marked as a copy of %s: %v", where, path, err)
		return
	}
	want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if d := lineDiff(body, want); d != "" {
		t.Errorf("%s: the block differs from %s (- block, + file):\n%s", where, path, d)
	}
}

// labVersion's line: the build's version (dev, dev-<revision>, a tag) and
// the Go toolchain and platform vary.
var versionLine = regexp.MustCompile(`(?m)^lab \S+ \(go[0-9][^,)]*, [a-z0-9]+/[a-z0-9]+\)$`)

func normaliseDocOutput(s, dir string) []string {
	s = strings.ReplaceAll(s, dir+string(filepath.Separator), "")
	s = strings.ReplaceAll(s, dir, ".")
	s = versionLine.ReplaceAllString(s, "lab VERSION (goVERSION, OS/ARCH)")
	s = strings.TrimRight(s, "\n")
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimRight(l, " \t"))
	}
	return out
}

// matchOutput reports whether got matches want, where a want line "..."
// matches any number of lines.
func matchOutput(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchOutput(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchOutput(want[1:], got[1:])
}

// lineDiff is a small line diff (longest common subsequence): "-" lines
// are only in a, "+" lines only in b; "" when they are equal.
func lineDiff(a, b []string) string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var d strings.Builder
	same := true
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			d.WriteString("  " + a[i] + "\n")
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			d.WriteString("- " + a[i] + "\n")
			i, same = i+1, false
		default:
			d.WriteString("+ " + b[j] + "\n")
			j, same = j+1, false
		}
	}
	if same {
		return ""
	}
	return d.String()
}

func TestDocsExamples(t *testing.T) {
	var examples []docExample
	for _, f := range docFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, parseDocExamples(t, f, src)...)
	}
	if len(examples) == 0 {
		t.Fatal("no console examples found in README.md and docs/*.md")
	}
	if t.Failed() {
		return
	}
	lab := buildLab(t)
	for _, ex := range examples {
		name := fmt.Sprintf("%s:%d", strings.TrimPrefix(ex.file, repoRoot+"/"), ex.line)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(filepath.Join(dir, "docs", "examples"), os.DirFS(filepath.Join(repoRoot, "docs", "examples"))); err != nil {
				t.Fatal(err)
			}
			for _, c := range ex.cmds {
				cmd := exec.Command(lab, c.args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "HOME="+dir, "NO_COLOR=1", "LAB_SUPERVISOR=")
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					t.Fatalf("%s:%d: lab %s: %v", name, c.line, strings.Join(c.args, " "), err)
				}
				got := normaliseDocOutput(out.String(), dir)
				want := normaliseDocOutput(strings.Join(c.want, "\n"), dir)
				if !matchOutput(want, got) {
					t.Errorf("%s:%d: `lab %s` (exit %d) no longer prints what the docs show (- docs, + output):\n%s",
						strings.TrimPrefix(ex.file, repoRoot+"/"), c.line, strings.Join(c.args, " "), cmd.ProcessState.ExitCode(), lineDiff(want, got))
				}
			}
		})
	}
}

// The docs' matcher and diff themselves.
func TestDocsExampleMatching(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\n...\nd", "a\nb\nc\nd", true},
		{"a\n...\nd", "a\nd", true},
		{"a\n...", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a", "a\nb", false},
	} {
		if got := matchOutput(strings.Split(c.want, "\n"), strings.Split(c.got, "\n")); got != c.ok {
			t.Errorf("matchOutput(%q, %q) = %v", c.want, c.got, got)
		}
	}
	if d := lineDiff([]string{"a", "b", "c"}, []string{"a", "x", "c"}); d != "  a\n- b\n+ x\n  c\n" {
		t.Errorf("lineDiff:\n%s", d)
	}
	src := "text\n```console\n$ lab version\nlab dev\n$ lab help\n...\n```\n```sh\n$ rm -rf /\n```\n"
	ex := parseDocExamples(t, "x.md", []byte(src))
	if len(ex) != 1 || len(ex[0].cmds) != 2 || ex[0].cmds[0].want[0] != "lab dev" || ex[0].cmds[1].args[0] != "help" {
		t.Errorf("parsed %+v", ex)
	}
}

// docs/examples/synthetic-run/run.json is a synthetic run (package
// statstest: seeded, not measured) for the `lab report` and `lab plan
// --from` examples. LAB_DOCS_REGEN=1 writes it again; otherwise the test
// only checks that it is there.
func TestDocsSyntheticRun(t *testing.T) {
	path := filepath.Join(repoRoot, "docs", "examples", "synthetic-run", "run.json")
	if os.Getenv("LAB_DOCS_REGEN") == "" {
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%v (LAB_DOCS_REGEN=1 go test ./cmd/lab -run TestDocsSyntheticRun writes it)", err)
		}
		return
	}
	run := statstest.Run(statstest.Spec{
		Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Model: "efficiency",
		Trials: 12, Noise: 0.03, Drift: 0.05, Speed: 0.04, Seed: 7,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 1600, P50Ms: 1.7, ServerUs: 440, DBUs: 270, RSSMB: 48},
			{Name: "unix", Rate: 1600, P50Ms: 1.6, ServerUs: 425, DBUs: 252, RSSMB: 47},
		},
	})
	b, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
