package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// `lab ab --repo DIR --base main --release latest`: three refs of a real
// git repository built (one with +RTS -N1) into wrappers of the real
// PostgREST, one run with the three in a random order each round, each variant's Build
// naming its repository, ref and commit, the summary titled by the refs;
// a second run builds nothing.
func TestABRepoThreeWay(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	pgrst := labtest.PostgREST(t)
	r := labtest.NewGitRepo(t)
	envLog := labtest.BuildEnvLog(t)
	// Its builds only (it counts them); a variable of the lab's the builds must not see.
	cache := []string{"XDG_CACHE_HOME=" + labtest.SharedDir(t), "BUILD_ENV_LOG=" + envLog, "LAB_TEST_SECRET=s3cret"}
	dir := directStack(t, "--postgrest", pgrst)
	short := gitbuild.Short
	wantTitle := "HEAD (" + short(r.Feature) + ") vs main (" + short(r.Main) + ") and v1.10.0 (" + short(r.Release) + ")"
	want := map[string]struct{ ref, sha string }{"main": {"main", r.Main}, "v1.10.0": {"v1.10.0", r.Release}, "HEAD": {"HEAD", r.Feature}}
	for i, wantCached := range []bool{false, true} {
		results, md := t.TempDir(), filepath.Join(t.TempDir(), "summary.md")
		out, err := runLabEnv(t, cache, "ab", "--repo", r.Dir, "--base", "main", "--release", "latest", "--build", labtest.BuildCommand, "--build-env", "LAB_POSTGREST,BUILD_ENV_LOG",
			"GETSingle", "--dir", dir, "--results", results,
			"--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s", "--markdown", md)
		if err != nil {
			t.Fatalf("run %d: lab ab --repo: %v\n%s", i+1, err, out)
		}
		if !strings.Contains(out, "building 3 ref(s)") {
			t.Errorf("run %d: no build progress:\n%s", i+1, out)
		}
		if got := strings.Count(out, "built before, cached"); wantCached && got != 3 || !wantCached && got != 0 {
			t.Errorf("run %d: %d builds reported cached, want %v:\n%s", i+1, got, wantCached, out)
		}
		// Issue 52, finding 4: the builds ran unprivileged, seeing only the allow-list.
		if n := labtest.CheckBuildEnv(t, envLog, gitbuild.BaseEnv, "LAB_POSTGREST", "BUILD_ENV_LOG"); n != 3 {
			t.Errorf("run %d: %d builds logged, want 3 (the second run builds nothing)", i+1, n)
		}
		_, run := onlyRun(t, filepath.Join(results, "binaries"))
		if len(run.Variants) != 3 {
			t.Fatalf("run %d: variants %+v, want three", i+1, run.Variants)
		}
		for _, vi := range run.Variants {
			w, ok := want[vi.Name]
			if !ok {
				t.Errorf("run %d: unexpected variant %q", i+1, vi.Name)
				continue
			}
			b := vi.Build
			if b.Commit != w.sha || b.Ref != w.ref || b.Repo != r.Dir || b.Version == "" { // the wrapped real PostgREST's version
				t.Errorf("run %d: variant %s build %+v, want ref %s commit %s repo %s and the version", i+1, vi.Name, b, w.ref, w.sha, r.Dir)
			}
			if vi.Baseline != (vi.Name == "main") {
				t.Errorf("run %d: variant %s baseline %v, want main the baseline", i+1, vi.Name, vi.Baseline)
			}
			if !strings.Contains(vi.Description, labtest.BuildCommand) {
				t.Errorf("run %d: variant %s description %q lacks the build command", i+1, vi.Name, vi.Description)
			}
		}
		measured := map[string]int{}
		for _, tr := range run.Trials {
			if tr.Error == "" && tr.Load.Requests > 0 {
				measured[tr.Variant]++
			}
		}
		if measured["main"] != 2 || measured["HEAD"] != 2 || measured["v1.10.0"] != 2 {
			t.Errorf("run %d: measured trials %v, want 2 per variant", i+1, measured)
		}
		s, _ := os.ReadFile(md)
		if !strings.HasPrefix(string(s), "<!-- pgrst-lab -->\n### pgrst-lab: "+wantTitle+"\n") {
			t.Errorf("run %d: summary title, want %q:\n%.300s", i+1, wantTitle, s)
		}
		// HEAD is compared with the release too, in its own table.
		if !strings.Contains(string(s), "**Against v1.10.0**") || !regexp.MustCompile(`(?m)^\| scenario \| variant \| .* vs v1\.10\.0 \|`).Match(s) ||
			!regexp.MustCompile(`(?m)^\| GETSingle \| HEAD \|.*$`).Match(s) {
			t.Errorf("run %d: the summary does not compare HEAD with v1.10.0:\n%s", i+1, s)
		}
		// lab ab turns Server-Timing on where every build knows the key.
		for _, vi := range run.Variants {
			if !strings.Contains(vi.Description, "server-timing-enabled = true (set by the lab") {
				t.Errorf("run %d: variant %s: description %q: Server-Timing not turned on", i+1, vi.Name, vi.Description)
			}
		}
	}
}

// A ref whose build fails stops `lab ab --repo` before the stack is
// touched, naming the ref, the command and the log's last lines; so do an
// unknown ref and a dirty HEAD.
func TestABRepoErrors(t *testing.T) {
	r := labtest.NewGitRepo(t)
	t.Setenv("XDG_CACHE_HOME", labtest.SharedDir(t))
	stackDir := filepath.Join(t.TempDir(), "never")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"main", "broken"}, []string{"variant broken", "broken (" + gitbuild.Short(r.Broken) + ")", labtest.BuildCommand, "src/Main.hs:3:1: error: parse error"}},
		{[]string{"main", "nosuch"}, []string{"nosuch"}},
		{[]string{"main"}, []string{"two refs"}},
		{[]string{"a", "b", "--base", "main"}, []string{"one ref"}},
	} {
		args := append([]string{"ab", "--repo", r.Dir, "--build", labtest.BuildCommand, "--build-env", "LAB_POSTGREST", "--dir", stackDir}, tc.args...)
		out, err := runLab(t, args...)
		if err == nil {
			t.Errorf("lab %v: no error\n%s", args, out)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("lab %v: error %q lacks %q", args, err, w)
			}
		}
	}
	// lab run's --binary NAME=ref:REF builds the same way, and needs --repo.
	if _, err := runLab(t, "run", "binaries", "--binary", "a=ref:main", "--binary", "b=ref:broken", "--repo", r.Dir,
		"--build", labtest.BuildCommand, "--build-env", "LAB_POSTGREST", "--dir", stackDir); err == nil || !strings.Contains(err.Error(), "parse error") {
		t.Errorf("lab run --binary b=ref:broken: %v", err)
	}
	if _, err := runLab(t, "run", "binaries", "--binary", "a=ref:main", "--binary", "b=ref:HEAD", "--dir", stackDir); err == nil || !strings.Contains(err.Error(), "--repo DIR") {
		t.Errorf("lab run --binary a=ref:main without --repo: %v", err)
	}
	if _, err := runLab(t, "run", "binaries", "--repo", r.Dir, "--base", "main", "--dir", stackDir); err == nil || !strings.Contains(err.Error(), "lab ab") {
		t.Errorf("lab run --base: %v", err)
	}
	if _, err := runLab(t, "ab", "--base", "main", "HEAD"); err == nil || !strings.Contains(err.Error(), "--repo") {
		t.Errorf("--base without --repo: %v", err)
	}
	os.WriteFile(filepath.Join(r.Dir, "README"), []byte("changed\n"), 0o644)
	if _, err := runLab(t, "ab", "--repo", r.Dir, "--build", labtest.BuildCommand, "--build-env", "LAB_POSTGREST", "--dir", stackDir, "--base", "main"); err == nil || !strings.Contains(err.Error(), "--allow-dirty") {
		t.Errorf("dirty HEAD: %v", err)
	}
	if _, err := os.Stat(stackDir); err == nil {
		t.Error("a failed build touched the stack directory")
	}
}

func TestABRepoRefNames(t *testing.T) {
	seen := map[string]bool{}
	for ref, want := range map[string]string{"origin/main": "origin-main", "HEAD~1": "HEAD-1", "v13.0.8": "v13.0.8", "@{u}": "u", "@": "ref"} {
		if got := lab.RefName(ref, seen); got != want {
			t.Errorf("lab.RefName(%q) = %q, want %q", ref, got, want)
		}
	}
	if got := lab.RefName("origin/main", seen); got != "origin-main-2" {
		t.Errorf("a second origin/main: %q", got)
	}
	var pf prFlags
	pf.git.repo = "."
	if _, err := abExperiment([]string{"main", "GETSingle", "pr/1"}, &pf); err != nil {
		t.Fatal(err)
	}
	if len(pf.binaries) != 2 || pf.binaries[0].Ref != "main" || pf.binaries[1].Name != "pr-1" || strings.Join(pf.scenarios, ",") != "GETSingle" {
		t.Errorf("binaries %+v scenarios %v", pf.binaries, pf.scenarios)
	}
}

func TestABRepoOrderAndTitle(t *testing.T) {
	built := func(ref, sha string) lab.Binary {
		return lab.Binary{Ref: ref, Commit: sha}
	}
	for _, tc := range []struct {
		args   []string
		base   string
		rel    string
		refs   string
		merged string // the ref --release latest's tag must be merged into
	}{
		{[]string{"HEAD"}, "main", "latest", "main,HEAD,latest", "main"},
		{nil, "main", "", "main,HEAD", "main"},
		{[]string{"pr"}, "", "latest", "latest,pr", "pr"},
		{[]string{"pr"}, "", "v1.0", "v1.0,pr", "pr"},
		{[]string{"a", "b", "c"}, "", "", "a,b,c", ""},
	} {
		var pf prFlags
		pf.git.repo, pf.git.base, pf.git.release = ".", tc.base, tc.rel
		if _, err := abExperiment(tc.args, &pf); err != nil {
			t.Fatal(err)
		}
		var refs []string
		for _, b := range pf.binaries {
			refs = append(refs, b.Ref)
		}
		if got := strings.Join(refs, ","); got != tc.refs {
			t.Errorf("%v --base %q --release %q: refs %s, want %s (the baseline first)", tc.args, tc.base, tc.rel, got, tc.refs)
		}
		if pf.git.mergedInto != tc.merged {
			t.Errorf("%v --base %q --release %q: latest release merged into %q, want %q", tc.args, tc.base, tc.rel, pf.git.mergedInto, tc.merged)
		}
	}
	three := []lab.Binary{built("main", "1111111aaa"), built("HEAD", "2222222bbb"), built("v13.0.8", "3333333ccc")}
	if got := lab.BinariesTitle(three, true); got != "HEAD (2222222) vs main (1111111) and v13.0.8 (3333333)" {
		t.Errorf("three-way title %q", got)
	}
	if got := lab.BinariesTitle(three, false); got != "HEAD (2222222) and v13.0.8 (3333333) vs main (1111111)" {
		t.Errorf("title %q", got)
	}
}
