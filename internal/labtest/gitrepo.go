package labtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitRepo is a git repository whose commits build a "PostgREST" with
// `sh build.sh`: a wrapper script that execs the first of $LAB_POSTGREST (as it was
// when built), written where cabal would put it (dist-newstyle).
type GitRepo struct {
	Dir string
	// Release is tagged v1.10.0 and v1.2.0 (the plain wrapper), Main adds
	// +RTS -N1 -RTS to it and is tagged v1.9.0 (so that only version
	// order, not string order, finds v1.10.0 the latest). Broken's build
	// fails (branch broken). Feature (branch feature, checked out as
	// HEAD) builds as Main does.
	Release, Main, Broken, Feature string
}

// BuildCommand builds a GitRepo's commits.
const BuildCommand = "sh build.sh"

const buildScript = `#!/bin/sh
set -e
echo "building the wrapper"
out=dist-newstyle/build/x86_64-linux/ghc-9.6/postgrest-0/x/postgrest/build/postgrest
mkdir -p "$out"
printf '#!/bin/sh\nexec "%s" "$@"%s\n' "${LAB_POSTGREST%%:*}" "$RTS" > "$out/postgrest"
chmod +x "$out/postgrest"
if [ -n "$BUILD_COUNT" ]; then echo built >> "$BUILD_COUNT"; fi
` + BuildEnvProbe

// BuildEnvProbe is a build script's lines that, when $BUILD_ENV_LOG names
// a file, append the uid the build runs as and the names of the variables
// it sees (CheckBuildEnv reads them).
const BuildEnvProbe = `if [ -n "$BUILD_ENV_LOG" ]; then { echo "uid $(id -u)"; env | cut -d= -f1 | sed 's/^/env /'; } >> "$BUILD_ENV_LOG"; fi
`

// BuildEnvLog makes a file for BuildEnvProbe that any user may append to.
func BuildEnvLog(t testing.TB) string {
	t.Helper()
	p := filepath.Join(SharedDir(t), "build-env.log")
	if err := os.WriteFile(p, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

// CheckBuildEnv fails the test when a build BuildEnvProbe logged to path
// ran as root or saw a variable that neither the lab's allow-list (base)
// nor named names (the shell's own PWD, OLDPWD, SHLVL and _ aside), and
// returns how many builds it logged.
func CheckBuildEnv(t testing.TB, path string, base []string, named ...string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"HOME": true, "USER": true, "LOGNAME": true, "PWD": true, "OLDPWD": true, "SHLVL": true, "_": true}
	for _, n := range append(append([]string(nil), base...), named...) {
		allowed[n] = true
	}
	builds := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		kind, v, _ := strings.Cut(line, " ")
		switch {
		case kind == "uid":
			builds++
			if v == "0" {
				t.Errorf("a build ran as root")
			}
		case kind == "env" && !allowed[v]:
			t.Errorf("a build saw %s, which the allow-list does not name", v)
		}
	}
	return builds
}

// NewGitRepo makes a GitRepo in a temporary directory with the real git.
func NewGitRepo(t testing.TB) GitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		Need(t, "git is not installed")
		return GitRepo{}
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=lab", "GIT_AUTHOR_EMAIL=lab@example.com",
			"GIT_COMMITTER_NAME=lab", "GIT_COMMITTER_EMAIL=lab@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		t.Helper()
		run("add", "-A")
		run("commit", "-q", "-m", msg)
		return run("rev-parse", "HEAD")
	}
	var r GitRepo
	r.Dir = dir
	run("init", "-q", "-b", "main")
	write(".gitignore", "dist-newstyle/\n")
	write("build.sh", buildScript)
	r.Release = commit("the plain wrapper")
	run("tag", "v1.2.0")
	run("tag", "v1.10.0")
	write("build.sh", strings.Replace(buildScript, "set -e\n", "set -e\nRTS=' +RTS -N1 -RTS'\n", 1))
	r.Main = commit("+RTS -N1")
	run("tag", "v1.9.0")
	run("tag", "vnext")
	run("checkout", "-q", "-b", "broken")
	write("build.sh", "#!/bin/sh\necho 'compiling Main.hs'\necho 'src/Main.hs:3:1: error: parse error' >&2\nexit 1\n")
	r.Broken = commit("a build that fails")
	run("checkout", "-q", "-b", "feature", "main")
	write("README", "a feature\n")
	r.Feature = commit("a feature")
	return r
}
