package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// tinyRate is --min-rate and --max-rate for the runs of efficiency
// experiments whose subject is not the capacity: their search measures
// this one rate (a step of 1-2 s) instead of ramping from 100 req/s to the
// target's capacity and bisecting (about 13 steps, most of such a test's
// time). Low enough for postgrest-mini and real PostgREST under -race on a
// slow machine.
const tinyRate = "500"

// parallelTests documents a choice: the long end-to-end tests that assert
// structure (a run's shape and files, restores after a kill, crashes, OOM
// kills, secrets, agents across namespaces) call t.Parallel, each on its
// own stack, so that two run at once (go test's -parallel, GOMAXPROCS by
// default); the ones whose assertion is the size of a measured effect (a
// gate firing, a change point, lab bisect and lab track finding a commit,
// per-endpoint verdicts, a timeline's stall) run alone in this package, so
// that a neighbour's load cannot decide them. A parallel test must not
// call t.Setenv.
const parallelTests = "t.Parallel for structure, alone for effects"

// lockedBuffer is a bytes.Buffer a child process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMain gives the package run a cache directory of its own
// ($XDG_CACHE_HOME: the bundled targets files, builds), stops the shared
// test cluster (labtest.Main) and removes the package run's build of lab
// and the cache. A test that needs a cache no other test shares (counting
// builds) gives runLabEnv its own.
func TestMain(m *testing.M) { labtest.Main(packageRun{m}) }

type packageRun struct{ m *testing.M }

func (p packageRun) Run() int {
	cache, err := os.MkdirTemp("", "lab-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(cache)
	if err := os.Chmod(cache, 0o755); err != nil { // the target's account runs root's copies kept there
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := p.m.Run()
	if labBuild.dir != "" {
		os.RemoveAll(labBuild.dir)
	}
	return code
}

// labBuild is buildLab's one build for the whole package run: the tests
// only run the binaries (a copy where one must be another user's), and a
// build of both costs several seconds a test even from the build cache
// (the link).
var labBuild struct {
	once sync.Once
	dir  string
	out  []byte
	err  error
}

// buildLab builds lab and postgrest-mini into a temporary directory, once
// per package run, and returns the lab binary's path. The directory is
// shared: a test must not change what is in it.
func buildLab(t *testing.T) string {
	t.Helper()
	labBuild.once.Do(func() {
		labBuild.dir, labBuild.err = os.MkdirTemp("", "lab-bin-")
		if labBuild.err == nil {
			labBuild.out, labBuild.err = exec.Command("go", "build", "-o", labBuild.dir+"/", ".", "../postgrest-mini").CombinedOutput()
		}
	})
	if labBuild.err != nil {
		t.Fatalf("build: %v\n%s", labBuild.err, labBuild.out)
	}
	return filepath.Join(labBuild.dir, "lab")
}

// waitForUnixVariant waits until a running `lab run` of killExperiment has
// put its second variant (unix, db-pool 3) in place and finished a trial,
// and then until the next trial's load is running: the lab process holds
// established connections to the target's server-port. It kills cmd and
// fails the test when that does not happen within limit.
func waitForUnixVariant(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, conf string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	port := 0
	for {
		b, _ := os.ReadFile(conf)
		if bytes.Contains(b, []byte("db-pool = 3")) && strings.Contains(out.String(), "[1/4]") {
			port = serverPort(t, b)
			if loadConnections(cmd.Process.Pid, port) >= 2 {
				return
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the run never applied the unix variant and loaded it (port %d):\n%s", port, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverPort reads server-port from a PostgREST config.
func serverPort(t *testing.T, conf []byte) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^server-port\s*=\s*"?(\d+)`).FindSubmatch(conf)
	if m == nil {
		t.Fatalf("no server-port in the config:\n%s", conf)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// loadConnections counts the established TCP connections that process pid
// holds to port (from its fds and /proc/<pid>/net/tcp and tcp6).
func loadConnections(pid, port int) int {
	inodes := map[string]bool{}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"tcp", "tcp6"} {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			// sl local rem st ... inode (field 9)
			if len(f) < 10 || f[3] != "01" {
				continue
			}
			_, rport, _ := strings.Cut(f[2], ":")
			if p, err := strconv.ParseInt(rport, 16, 32); err == nil && int(p) == port && inodes[f[9]] {
				n++
			}
		}
	}
	return n
}

// labTarget is a server the command tests run the lab against, given to
// `lab stack up` as flags.
type labTarget struct {
	name      string // short: it ends up in the stack's socket path (at most 107 bytes)
	reference bool
	flags     func(t *testing.T) []string
}

// labTargets are the real PostgREST ($LAB_POSTGREST; CI=true fails
// without it) and postgrest-mini: the one built next to lab by buildLab,
// or, with lab == "", the one `stack up` finds or builds itself.
func labTargets(lab string) []labTarget {
	return []labTarget{
		{"real", false, func(t *testing.T) []string { return []string{"--postgrest", labtest.PostgREST(t)} }},
		{"mini", true, func(t *testing.T) []string {
			if lab == "" {
				return nil
			}
			return []string{"--postgrest", filepath.Join(filepath.Dir(lab), "postgrest-mini")}
		}},
	}
}
