package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
)

// gateExperiment makes a real regression on the reference server: the
// "slow" variant injects CPU work into every request (postgrest-mini's
// PGRST_LAB_INJECT_CPU_US, as lab calibrate does). Six paired rounds are
// the fewest that can reach p <= 0.05 (2/2^6).
const gateExperiment = `name = "gate-inject"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 4
duration = "1s"
warmup = "0s"
[trials]
min = 6
max = 6
interference = 1
[[variant]]
name = "base"
baseline = true
[[variant]]
name = "slow"
env = { ` + calibrate.InjectEnv + ` = "500" }
`

// --gate end to end on postgrest-mini: a gate the injected regression
// must trip exits with code 3 and names it (while a rule on errors, which
// did not change, does not fire); a gate beyond the regression passes.
// The rules are on server CPU per request, which the injection raises by
// about +300% (500 µs on ~150 µs): throughput, on this shared 2-core
// machine, is too noisy for six 1-second rounds to call.
func TestGateOnInjectedRegression(t *testing.T) {
	dir := directStack(t, "--postgrest", buildMini(t))
	tmp := t.TempDir()
	exp := filepath.Join(tmp, "gate.toml")
	if err := os.WriteFile(exp, []byte(gateExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(tmp, "summary.md")
	out, err := runLab(t, "run", exp, "--dir", dir, "--results", t.TempDir(), "--gate", "server_cpu>+50%,errors>+50%", "--markdown", md)
	if err == nil || exitCode(err) != exitGate {
		t.Fatalf("want the gate to fire (exit code %d), got %v\n%s", exitGate, err, out)
	}
	if !strings.Contains(out, "gate server_cpu>+50%,errors>+50%: FAILED") || !strings.Contains(out, "GETSingle: slow vs base: server CPU +") {
		t.Errorf("output does not say what fired:\n%s", out)
	}
	if strings.Contains(out, "beyond errors>") {
		t.Errorf("the errors rule fired, but errors did not change:\n%s", out)
	}
	summary, _ := os.ReadFile(md)
	if !strings.Contains(string(summary), "**Gate `server_cpu>+50%,errors>+50%`: FAILED**") {
		t.Errorf("summary lacks the failed gate:\n%s", summary)
	}

	out, err = runLab(t, "run", exp, "--dir", dir, "--results", t.TempDir(), "--gate", "server_cpu>+1000%")
	if err != nil {
		t.Fatalf("a gate beyond the regression fired: %v\n%s", err, out)
	}
	if !strings.Contains(out, "gate server_cpu>+1000%: passed") {
		t.Errorf("output lacks the passed gate:\n%s", out)
	}
	// It passed on a significant regression, smaller than its threshold.
	if !regexp.MustCompile(`(?m)^  server CPU \(µs/req\) .*\+\d+\.\d+%.* worse$`).MatchString(out) {
		t.Errorf("the second run did not find the regression significant:\n%s", out)
	}
}
