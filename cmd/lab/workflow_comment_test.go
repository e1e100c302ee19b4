package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

// commentScript is the shell of pgrst-lab-comment.yml's posting step.
func commentScript(t *testing.T) string {
	t.Helper()
	w, _ := workflow(t, "pgrst-lab-comment.yml")
	for _, j := range w.Jobs {
		for _, s := range j.Steps {
			if r, ok := s.Exec.(*actionlint.ExecRun); ok && s.Name != nil && strings.HasPrefix(s.Name.Value, "Render the comment") {
				if strings.Contains(r.Run.Value, "${{") {
					t.Fatal("the posting step expands an expression in its shell: pass it through env")
				}
				return r.Run.Value
			}
		}
	}
	t.Fatal("pgrst-lab-comment.yml has no step named Render the comment...")
	return ""
}

// Issue 52, finding 7: any fork could add a workflow named pgrst-lab and
// the comment workflow posted whatever Markdown it uploaded. The posting
// step is run here as the runner would (bash, the real lab, jq, and a gh
// that records what it is asked): a run of another workflow file is
// ignored; a measurement of another head repository is refused; a good
// one is posted as lab renders it from run.json, its hostile strings
// escaped, and a lab-summary.md the PR's run planted is never posted.
func TestCommentWorkflowPostsOnlyWhatLabRenders(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			labtest.Need(t, "%s is not installed: %v", tool, err)
		}
	}
	script := commentScript(t)
	bin := t.TempDir()
	if err := os.Symlink(buildLab(t), filepath.Join(bin, "lab")); err != nil {
		t.Fatal(err)
	}
	// gh: `pr view` answers $FAKE_HEAD; the comments list is empty; a POST
	// or PATCH keeps the body it was given.
	gh := `#!/bin/sh
echo "$*" >> "$GH_LOG"
case "$1 $2" in
  "pr view") echo "$FAKE_HEAD" ;;
  "api --paginate") ;;
  "api --method") while [ $# -gt 0 ]; do if [ "$1" = --input ]; then cp "$2" "$POSTED"; fi; shift; done ;;
esac
`
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(gh), 0o755); err != nil {
		t.Fatal(err)
	}
	// A run.json whose strings are hostile, and a planted summary.
	b, err := os.ReadFile("../../docs/examples/synthetic-run/run.json")
	if err != nil {
		t.Fatal(err)
	}
	const hostile = `<img src=x onerror=alert(1)> [win](https://evil.example) @maintainers`
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	raw["title"] = hostile
	b, _ = json.Marshal(raw)

	const measured, headRepo = "0123456789abcdef0123456789abcdef01234567", "contributor/postgrest"
	// The workflow passes the measuring run's page (workflow_run.html_url).
	const measuringRun = "https://github.com/PostgREST/postgrest/actions/runs/42"
	for _, c := range []struct {
		name, path, head string
		wantRC           int
		wantPost         bool
	}{
		{"fork-named-workflow", ".github/workflows/evil.yml", measured + " " + headRepo, 0, false},
		{"other-head-repository", ".github/workflows/pgrst-lab.yml", measured + " someone/else", 1, false},
		{"other-head-commit", ".github/workflows/pgrst-lab.yml", "fedcba9876543210fedcba9876543210fedcba98 " + headRepo, 1, false},
		{"the-measuring-workflow", ".github/workflows/pgrst-lab.yml", measured + " " + headRepo, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			if err := os.MkdirAll(filepath.Join(work, "comment"), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, data := range map[string][]byte{"run.json": b, "pr-number": []byte("7\n"), "lab-summary.md": []byte(report.CommentMarker + "\nEVIL planted markdown\n")} {
				if err := os.WriteFile(filepath.Join(work, "comment", name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			posted, ghLog := filepath.Join(work, "posted.json"), filepath.Join(work, "gh.log")
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "GH_TOKEN=t", "REPO=PostgREST/postgrest",
				"HEAD_SHA="+measured, "HEAD_REPO="+headRepo, "WORKFLOW_PATH="+c.path, "MARKER="+report.CommentMarker,
				"GATE=cpu>+3%", "FAKE_HEAD="+c.head, "GH_LOG="+ghLog, "POSTED="+posted, "LAB_REPORT_URL="+measuringRun)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			rc := 0
			if ee, ok := err.(*exec.ExitError); ok {
				rc = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if rc != c.wantRC {
				t.Errorf("exit code %d, want %d:\n%s", rc, c.wantRC, out.String())
			}
			body, err := os.ReadFile(posted)
			if !c.wantPost {
				if err == nil {
					t.Errorf("posted a comment:\n%s", body)
				}
				if log, _ := os.ReadFile(ghLog); c.path != ".github/workflows/pgrst-lab.yml" && len(log) > 0 {
					t.Errorf("a run of another workflow file still asked gh: %s", log)
				}
				return
			}
			if err != nil {
				t.Fatalf("nothing posted:\n%s", out.String())
			}
			var msg struct{ Body string }
			if err := json.Unmarshal(body, &msg); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(msg.Body, report.CommentMarker+"\n") || strings.Contains(msg.Body, "EVIL") {
				t.Errorf("the posted body is not lab's rendering of run.json:\n%.400s", msg.Body)
			}
			if !strings.Contains(msg.Body, "[the run's artifacts]("+measuringRun+")") || strings.Contains(msg.Body, "/tmp/") {
				t.Errorf("the posted body does not link the measuring run's artifacts, or names a local path:\n%s", msg.Body[strings.LastIndex(msg.Body, "<sub>"):])
			}
			for _, raw := range []string{"<img", "](https://evil.example)", "@maintainers"} {
				if strings.Contains(msg.Body, raw) {
					t.Errorf("the posted body carries %q unescaped:\n%.600s", raw, msg.Body)
				}
			}
		})
	}
}
