package gitbuild

import (
	"context"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// A branch's commits oldest first, and the release tags merged into it
// in version order; a branch that does not exist is an error.
func TestCommitsAndTags(t *testing.T) {
	r := labtest.NewGitRepo(t)
	ctx := context.Background()
	cs, err := Commits(ctx, r.Dir, "feature")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{r.Release, r.Main, r.Feature}
	if len(cs) != len(want) {
		t.Fatalf("feature's commits %+v, want %d", cs, len(want))
	}
	for i, c := range cs {
		if c.SHA != want[i] {
			t.Errorf("commit %d: %s, want %s", i, c.SHA, want[i])
		}
	}
	if cs[1].Subject != "+RTS -N1" {
		t.Errorf("subject %q", cs[1].Subject)
	}
	tags, err := Tags(ctx, r.Dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	wantTags := []struct{ tag, sha string }{{"v1.2.0", r.Release}, {"v1.9.0", r.Main}, {"v1.10.0", r.Release}}
	if len(tags) != len(wantTags) {
		t.Fatalf("tags %+v, want %v", tags, wantTags)
	}
	for i, w := range wantTags {
		if tags[i].Tag != w.tag || tags[i].SHA != w.sha {
			t.Errorf("tag %d: %+v, want %v", i, tags[i], w)
		}
	}
	if _, err := Commits(ctx, r.Dir, "nosuch"); err == nil {
		t.Error("Commits of a missing branch: no error")
	}
}

// A range is good, then bad's first-parent history after it, ending with
// bad; the same commit twice, or the two given newest first, is an error
// that names the refs.
func TestRange(t *testing.T) {
	r := labtest.NewGitRepo(t)
	ctx := context.Background()
	cs, err := Range(ctx, r.Dir, "v1.2.0", "feature")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{r.Release, r.Main, r.Feature}
	if len(cs) != len(want) {
		t.Fatalf("range %+v, want %d commits", cs, len(want))
	}
	for i, c := range cs {
		if c.SHA != want[i] {
			t.Errorf("commit %d: %s, want %s", i, c.SHA, want[i])
		}
	}
	if cs[0].Subject != "the plain wrapper" || cs[1].Subject != "+RTS -N1" {
		t.Errorf("subjects %q, %q", cs[0].Subject, cs[1].Subject)
	}
	if _, err := Range(ctx, r.Dir, "feature", "v1.2.0"); err == nil || !strings.Contains(err.Error(), "feature") || !strings.Contains(err.Error(), "not an ancestor of v1.2.0") {
		t.Errorf("newest first: %v", err)
	}
	if _, err := Range(ctx, r.Dir, "v1.2.0", "v1.10.0"); err == nil || !strings.Contains(err.Error(), "the same commit") {
		t.Errorf("one commit twice: %v", err)
	}
	if _, err := Range(ctx, r.Dir, "nosuch", "main"); err == nil || !strings.Contains(err.Error(), `no commit "nosuch"`) {
		t.Errorf("a missing ref: %v", err)
	}
}
