package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/host/agent"
	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

const agentTestToken = "test-token-0123456789abcdef0123456789"

// startAgent starts `prefix... lab agent --config cfg` and waits until it
// listens; it returns the agent's address and output. SIGTERM at cleanup.
func startAgent(t *testing.T, prefix []string, lab, cfg string) (addr string, out *lockedBuffer) {
	t.Helper()
	out = &lockedBuffer{}
	argv := append(append([]string{}, prefix...), lab, "agent", "--config", cfg)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			_ = cmd.Process.Kill()
			<-done
		}
		t.Logf("agent output:\n%s", out.String())
	})
	re := regexp.MustCompile(`listening on https?://(\S+) `)
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1], out
		}
		select {
		case <-done:
			t.Fatalf("agent exited:\n%s", out.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("agent did not start listening:\n%s", out.String())
	return "", nil
}

// stackUp brings up a directly supervised stack with the Chinook fixture
// (prefix runs the commands, e.g. in a network namespace; targetArgs go to
// `stack up`, e.g. --postgrest PATH); Down at cleanup.
func stackUp(t *testing.T, prefix []string, lab string, targetArgs ...string) string {
	t.Helper()
	if _, err := labtest.BinDir(); err != nil {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	dir := labDir(t)
	run := func(args ...string) {
		argv := append(append(append([]string{}, prefix...), lab), args...)
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	t.Cleanup(func() {
		argv := append(append([]string{}, prefix...), lab, "stack", "down", "--dir", dir, "--purge")
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			t.Logf("stack down: %v\n%s", err, out)
			if s, err := stack.Open(dir); err == nil {
				_ = s.Down(context.Background(), true)
				s.Close()
			}
		}
	})
	run(append([]string{"stack", "up", "--dir", dir, "--supervisor", "direct"}, targetArgs...)...)
	run("fixture", "chinook", "--dir", dir)
	return dir
}

func writeFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAgentKilledDriverRestores runs a real `lab run --agent` child against
// a real `lab agent` and SIGKILLs the driver in the middle of a trial: the
// agent's lease expires and it restores the original config within the
// grace period, and the target serves again.
func TestAgentKilledDriverRestores(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	lab := buildLab(t)
	dir := stackUp(t, nil, lab)
	conf := filepath.Join(dir, "postgrest.conf")
	original, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	tok := agenttest.TokenFile(t, agentTestToken)
	const lease = 3 * time.Second
	cfg := writeFile(t, tmp, "agent.toml", "listen = \"127.0.0.1:0\"\nlease = \"3s\"\n[stack]\ndir = \""+dir+"\"\n", 0o600)
	// The agent refuses a token file others can read.
	loose := writeFile(t, tmp, "loose-token", agentTestToken, 0o644)
	if out, err := exec.Command(lab, "agent", "--config", cfg, "--token-file", loose).CombinedOutput(); err == nil || !strings.Contains(string(out), "chmod 600") {
		t.Fatalf("agent with a 0644 token file: %v\n%s", err, out)
	}
	cfg = writeFile(t, tmp, "agent.toml", "listen = \"127.0.0.1:0\"\nlease = \"3s\"\ntoken_file = \""+tok+"\"\n[stack]\ndir = \""+dir+"\"\n", 0o600)
	addr, agentOut := startAgent(t, nil, lab, cfg)

	exp := writeFile(t, tmp, "kill-test.toml", killExperiment, 0o644)
	var out lockedBuffer
	driver := exec.Command(lab, "run", exp, "--agent", "http://"+addr, "--token-file", tok, "--results", t.TempDir())
	driver.Stdout, driver.Stderr = &out, &out
	if err := driver.Start(); err != nil {
		t.Fatal(err)
	}
	waitForUnixVariant(t, driver, &out, conf, 2*time.Minute)
	if err := driver.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	_ = driver.Wait()
	if b, _ := os.ReadFile(conf); bytes.Equal(b, original) {
		t.Fatal("the config is the original right after SIGKILL: the test proves nothing")
	}
	grace := lease + time.Minute // the lease, then a restore with a restart and a readiness gate
	for {
		b, _ := os.ReadFile(conf)
		if bytes.Equal(b, original) && strings.Contains(agentOut.String(), "original configuration restored") {
			break
		}
		if time.Since(killed) > grace {
			t.Fatalf("config not restored %v after the driver was killed:\n%s\n--- agent\n%s", grace, b, agentOut.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(killed)
	t.Logf("original config back %v after SIGKILL of the driver (lease %v)", took.Round(time.Millisecond), lease)
	if took < lease*3/5 {
		t.Errorf("restored after %v, before the lease (%v) could have expired", took, lease)
	}
	if !strings.Contains(agentOut.String(), "expired") {
		t.Errorf("the agent did not say the lease expired:\n%s", agentOut.String())
	}
	resp, err := http.Get(targetURL(t, dir) + "/artist?artist_id=eq.3")
	if err != nil {
		t.Fatalf("target not serving after the restore: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("target answered %d", resp.StatusCode)
	}
}

// Each agent gets its own token: as many --token-file as --agent.
func TestAgentTokensPerAgent(t *testing.T) {
	tmp := t.TempDir()
	tok := writeFile(t, tmp, "a.token", agentTestToken, 0o600)
	af := agentFlags{urls: []string{"http://127.0.0.1:1", "http://127.0.0.1:2"}, tokenFiles: []string{tok}}
	if _, err := af.clientOptions(nil); err == nil || !strings.Contains(err.Error(), "one --token-file per --agent") {
		t.Fatalf("two agents, one token file: %v", err)
	}
	other := writeFile(t, tmp, "b.token", "another-token-0123456789abcdef", 0o600)
	af.tokenFiles = append(af.tokenFiles, other)
	opts, err := af.clientOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(opts[0].Token) != agentTestToken || string(opts[1].Token) != "another-token-0123456789abcdef" {
		t.Errorf("tokens %q, %q: want each agent's own", opts[0].Token, opts[1].Token)
	}
}

// AGENT.toml's [target] and an experiment file's [target] name an existing
// server with the same keys: the agent's config has a type of its own (it
// does not import the experiment file format), and this holds the two
// together.
func TestAgentTargetKeysAreTheExperimentFiles(t *testing.T) {
	tags := func(rt reflect.Type) []string {
		var ks []string
		for i := range rt.NumField() {
			ks = append(ks, rt.Field(i).Tag.Get("toml"))
		}
		return ks
	}
	if a, e := tags(reflect.TypeFor[agent.TargetConfig]()), tags(reflect.TypeFor[experiments.ServerTable]()); !slices.Equal(a, e) {
		t.Errorf("AGENT.toml [target] keys %v, an experiment file's %v", a, e)
	}
}
