package gitbuild

import (
	"context"
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
