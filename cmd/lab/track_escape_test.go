package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
)

// Issue 41, finding 5: git passes ESC, BEL and C1 controls in a commit's
// subject through %s, and a commit's build prints what it likes. A branch
// of a real repository with such a subject and such a build: lab track's
// lines (progress, build steps, the failure), the variant's description
// (run.json, the reports) and the error it ends with carry no control,
// but the subject's text.
func TestTrackPrintsNoTerminalEscapeFromGit(t *testing.T) {
	r := labtest.NewGitRepo(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = r.Dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=lab", "GIT_AUTHOR_EMAIL=lab@example.com",
			"GIT_COMMITTER_NAME=lab", "GIT_COMMITTER_EMAIL=lab@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("checkout", "-q", "-b", "hostile", "main")
	if err := os.WriteFile(filepath.Join(r.Dir, "README"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "fix the pool\x1b[2J\x1b]0;pwned\x07 now\u009b31m red\a")
	build := "#!/bin/sh\nprintf 'compiling\\033[2J\\033]0;pwned\\007 Main.hs\\302\\23331m\\n'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(r.Dir, "build.sh"), []byte(build), 0o755); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "\x1b[31mbreak\x1b[0m the build")

	ctx := context.Background()
	var sel track.Selection
	commits, err := listCommits(ctx, r.Dir, "hostile", false, "", &sel)
	if err != nil {
		t.Fatal(err)
	}
	hostile := commits.listed[len(commits.listed)-2:]
	e := &lab.Experiment{Name: "track"}
	if err := track.OneVariant(e); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var descs []string
	cache := labtest.SharedDir(t)
	builder, err := runas.Target(context.Background(), "") // never root
	if err != nil {
		t.Fatal(err)
	}
	tr := &track.Tracker{Experiment: e, Repo: r.Dir, Command: labtest.BuildCommand, Order: commits.order, Out: &out,
		Build: func(ctx context.Context, c track.Commit, progress func(string)) (track.Build, error) {
			res, err := gitbuild.Build(ctx, gitbuild.Options{Repo: r.Dir, Ref: c.SHA, SHA: c.SHA, Command: labtest.BuildCommand,
				CacheDir: filepath.Join(cache, "builds"), Store: filepath.Join(cache, "bin"), User: builder,
				Env: []string{"LAB_POSTGREST=" + os.Getenv("LAB_POSTGREST")}, Progress: progress})
			if err != nil {
				return track.Build{}, err
			}
			return track.Build{Path: res.Path, Command: res.Command, Cached: res.Cached}, nil
		},
		Measure: func(context.Context, track.Commit) error {
			descs = append(descs, e.Variants[0].Description)
			return nil
		},
		Runs: func(context.Context) ([]history.Run, error) { return nil, nil },
	}
	err = tr.Track(ctx, hostile)
	if err == nil || !strings.Contains(err.Error(), "compiling") {
		t.Fatalf("the broken build: %v, want its failure with the log's tail", err)
	}
	for name, s := range map[string]string{"output": out.String(), "description": strings.Join(descs, "\n"), "error": err.Error()} {
		for _, c := range []string{"\x1b", "\x07", "\u009b"} {
			if strings.Contains(s, c) {
				t.Errorf("lab track's %s holds %q:\n%q", name, c, s)
			}
		}
	}
	for _, want := range []string{"(fix the pool", "(break the build)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks the subject %q:\n%s", want, out.String())
		}
	}
	if len(descs) != 1 || !strings.Contains(descs[0], "fix the pool") {
		t.Errorf("variant descriptions %q, want the first commit's subject", descs)
	}
}
