package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

// workflowDir holds the fork-safe pair of docs/github-actions.md.
const workflowDir = "../../docs/examples/github-actions"

// TestForkSafeWorkflowsLint: the checked-in workflows pass actionlint
// (its syntax, expression, action-input, permission, runner-label and
// untrusted-input checks; shellcheck too when it is installed).
func TestForkSafeWorkflowsLint(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(workflowDir, "*.yml"))
	if err != nil || len(files) != 2 {
		t.Fatalf("want the two workflows in %s, found %v (%v)", workflowDir, files, err)
	}
	// PostgREST's own: the Nix-built PR measurement and the push/tag job.
	pg, err := filepath.Glob(filepath.Join(workflowDir, "postgrest", "*.yml"))
	if err != nil || len(pg) != 2 {
		t.Fatalf("want PostgREST's two workflows in %s/postgrest, found %v (%v)", workflowDir, pg, err)
	}
	files = append(files, pg...)
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{ConfigFile: filepath.Join(workflowDir, "actionlint.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
}

// workflow parses one of the pair.
func workflow(t *testing.T, name string) (*actionlint.Workflow, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(workflowDir, name))
	if err != nil {
		t.Fatal(err)
	}
	w, errs := actionlint.Parse(b)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", name, errs[0])
	}
	return w, string(b)
}

// TestForkSafeWorkflowsSplit: the pull_request half holds no write
// permission and uploads the comment; the workflow_run half may write
// pull-request comments but checks out and runs nothing of the PR, and
// finds its comment by the marker lab's summary opens with. Both queue
// with concurrency groups.
func TestForkSafeWorkflowsSplit(t *testing.T) {
	measure, _ := workflow(t, "pgrst-lab.yml")
	comment, commentText := workflow(t, "pgrst-lab-comment.yml")
	hook := func(w *actionlint.Workflow) string {
		if len(w.On) != 1 {
			return "several events"
		}
		return w.On[0].EventName()
	}
	if hook(measure) != "pull_request" || hook(comment) != "workflow_run" {
		t.Errorf("events: %s and %s, want pull_request and workflow_run", hook(measure), hook(comment))
	}
	perms := func(w *actionlint.Workflow) map[string]string {
		m := map[string]string{}
		if w.Permissions == nil || w.Permissions.All != nil {
			return nil
		}
		for k, s := range w.Permissions.Scopes {
			m[k] = s.Value.Value
		}
		for id, j := range w.Jobs {
			if j.Permissions != nil {
				m["job "+id] = "set"
			}
		}
		return m
	}
	if p := perms(measure); len(p) != 1 || p["contents"] != "read" {
		t.Errorf("pgrst-lab.yml permissions %v: want only contents: read (it runs the PR's code)", p)
	}
	if p := perms(comment); len(p) != 2 || p["pull-requests"] != "write" || p["actions"] != "read" {
		t.Errorf("pgrst-lab-comment.yml permissions %v: want pull-requests: write and actions: read", p)
	}
	uses := func(w *actionlint.Workflow) []string {
		var out []string
		for _, j := range w.Jobs {
			for _, s := range j.Steps {
				if a, ok := s.Exec.(*actionlint.ExecAction); ok {
					out = append(out, a.Uses.Value)
				}
			}
		}
		return out
	}
	if u := strings.Join(uses(measure), " "); !strings.Contains(u, "actions/upload-artifact@") {
		t.Errorf("pgrst-lab.yml uploads no artifact: %s", u)
	}
	for _, u := range uses(comment) {
		if !strings.HasPrefix(u, "actions/download-artifact@") && !strings.HasPrefix(u, "actions/setup-go@") {
			t.Errorf("pgrst-lab-comment.yml uses %s: it may only download the artifact and install lab, never check out or run the PR's code", u)
		}
	}
	if !strings.Contains(commentText, "MARKER: "+report.CommentMarker+"\n") {
		t.Errorf("pgrst-lab-comment.yml does not look for lab's marker %s", report.CommentMarker)
	}
	for name, w := range map[string]*actionlint.Workflow{"pgrst-lab.yml": measure, "pgrst-lab-comment.yml": comment} {
		if w.Concurrency == nil || w.Concurrency.Group == nil {
			t.Errorf("%s: no concurrency group", name)
		}
	}
}

// Issue 55: the workflows for PostgREST's repository build as PostgREST
// does (Nix, its cachix cache), measure three builds (base, HEAD, the
// latest release) on PostgREST's own load test with a read-only token,
// and feed pushes to main and release tags into lab track's store.
func TestPostgRESTWorkflows(t *testing.T) {
	pr, prText := workflow(t, filepath.Join("postgrest", "pgrst-lab.yml"))
	track, trackText := workflow(t, filepath.Join("postgrest", "pgrst-lab-track.yml"))
	for name, text := range map[string]string{"pgrst-lab.yml": prText, "pgrst-lab-track.yml": trackText} {
		for _, want := range []string{"cachix/install-nix-action", "cachix/cachix-action", "name: postgrest", "nix-build -A postgrestPackage"} {
			if !strings.Contains(text, want) {
				t.Errorf("postgrest/%s lacks %q", name, want)
			}
		}
	}
	for _, want := range []string{"lab run postgrest-loadtest", "--binary \"base=ref:$BASE_SHA\"", "--binary head=ref:HEAD", "git describe --tags", "--postgrest-loadtest", "actions/setup-go", "apt-get install -y -q postgresql", "--gate", "rc\" -eq 4"} {
		if !strings.Contains(prText, want) {
			t.Errorf("postgrest/pgrst-lab.yml lacks %q", want)
		}
	}
	if p := pr.Permissions; p == nil || len(p.Scopes) != 1 || p.Scopes["contents"] == nil || p.Scopes["contents"].Value.Value != "read" {
		t.Errorf("postgrest/pgrst-lab.yml permissions %v: want only contents: read (it runs the PR's code)", p)
	}
	if track.On == nil || !strings.Contains(trackText, "branches: [main]") || !strings.Contains(trackText, "tags: ['v*']") {
		t.Error("postgrest/pgrst-lab-track.yml does not run on pushes to main and on tags")
	}
	for _, want := range []string{"lab track --repo .", "--tags", "--store \"$LAB_STORE\"", "secrets.LAB_STORE"} {
		if !strings.Contains(trackText, want) {
			t.Errorf("postgrest/pgrst-lab-track.yml lacks %q", want)
		}
	}
}
