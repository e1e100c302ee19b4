package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
)

// gateExperiment makes a real regression on the reference server: the
// "slow" variant injects injectUs of CPU work into every request
// (postgrest-mini's PGRST_LAB_INJECT_CPU_US, as lab calibrate does), in
// rounds paired rounds. Six are the fewest that can reach p <= 0.05
// (2/2^6), so one round against the others fails the test: the verdicts
// are not speed-adjusted (speed_adjust = false), since a variant that
// moves the machine's speed reference (the injection does, on two cores)
// makes a CPU row count only where raw and adjusted ratios agree, a rule
// tested in lab/stats, not here.
func gateExperiment(injectUs, rounds int) string {
	return fmt.Sprintf(`name = "gate-inject"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 4
duration = "1s"
warmup = "0s"
[trials]
min = %[2]d
max = %[2]d
interference = 1
speed_adjust = false
[[variant]]
name = "base"
baseline = true
[[variant]]
name = "slow"
env = { `+calibrate.InjectEnv+` = "%[1]d" }
`, injectUs, rounds)
}

// gateInjectFactor sizes the injection from the baseline's own CPU per
// request. The injected work costs about 1.45 times its nominal µs (2.5
// times a 97 µs baseline measured +387 %, 15 times a 103 µs one +2,135 %),
// so three times the baseline is about +335 %: near the middle, as
// ratios, of the gate that must fire (+50 %) and the one that must not
// (+1000 %, the largest a rule takes), so that both hold however fast the
// machine, even with the baseline measured beforehand off by a factor of
// two either way (+120..+770 %).
const gateInjectFactor = 3

// gateBeyond is the gate that must not fire.
const gateBeyond = "server_cpu>+1000%"

// --gate end to end on postgrest-mini: a gate the injected regression
// must trip exits with code 3 and names it (while a rule on errors, which
// did not change, does not fire); a gate beyond the regression does not
// fire, and beside a rule the run cannot decide it is inconclusive (exit
// code 4).
// The rules are on server CPU per request: throughput, on this shared
// 2-core machine, is too noisy for six 1-second rounds to call. A fixed
// injection would be a different regression on every machine (500 µs was
// +300 % on ~150 µs, and +1,198 % on a machine serving a request in
// 44 µs, where the gate that must not fire fired), so the test first
// measures the baseline's CPU per request and injects a multiple of it.
func TestGateOnInjectedRegression(t *testing.T) {
	dir := directStack(t, "--postgrest", buildMini(t))
	tmp := t.TempDir()
	exp := filepath.Join(tmp, "gate.toml")
	baseUs := gateBaselineCPU(t, dir, exp)
	injectUs := max(1, int(math.Round(gateInjectFactor*baseUs)))
	t.Logf("baseline %.1f µs of server CPU per request: injecting %d µs", baseUs, injectUs)
	if err := os.WriteFile(exp, []byte(gateExperiment(injectUs, 6)), 0o644); err != nil {
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

	// Beside it, a rule the run cannot decide (the JWT cache's hit rate:
	// the requests carry no token): the gate fires nowhere, and is
	// inconclusive, not passed.
	const blindRule = "jwt_cache_hit_rate>+5%"
	md = filepath.Join(tmp, "inconclusive.md")
	out, err = runLab(t, "run", exp, "--dir", dir, "--results", t.TempDir(), "--gate", gateBeyond+","+blindRule, "--markdown", md)
	if exitCode(err) != exitInconclusive {
		t.Fatalf("want an inconclusive gate (exit code %d), got %v\n%s", exitInconclusive, err, out)
	}
	if m := regexp.MustCompile(`(?m)^  server CPU \(µs/req\) .*$`).FindString(out); m != "" {
		t.Logf("injected %d µs on %.1f µs:%s", injectUs, baseUs, m)
	}
	if !strings.Contains(out, "gate "+gateBeyond+","+blindRule+": inconclusive") || !strings.Contains(out, "("+blindRule+")") ||
		strings.Contains(out, "FAILED") || strings.Contains(out, ": passed") {
		t.Errorf("output does not call the gate inconclusive and say where it was blind:\n%s", out)
	}
	if strings.Contains(out, "("+gateBeyond+")") {
		t.Errorf("the server CPU rule, which could decide, is listed blind:\n%s", out)
	}
	summary, _ = os.ReadFile(md)
	if !strings.Contains(string(summary), ": inconclusive**") || strings.Contains(string(summary), ": passed**") {
		t.Errorf("summary does not call the gate inconclusive:\n%.600s", summary)
	}
	// It passed on a significant regression, smaller than its threshold.
	if !regexp.MustCompile(`(?m)^  server CPU \(µs/req\) .*\+\d+\.\d+%.* worse$`).MatchString(out) {
		t.Errorf("the second run did not find the regression significant:\n%s", out)
	}
}

// gateBaselineCPU measures the median server CPU per request of the
// baseline on the stack in dir with a short run of the gate experiment
// without injection (written to exp).
func gateBaselineCPU(t *testing.T, dir, exp string) float64 {
	t.Helper()
	if err := os.WriteFile(exp, []byte(gateExperiment(0, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	if out, err := runLab(t, "run", exp, "--dir", dir, "--results", results); err != nil {
		t.Fatalf("baseline run: %v\n%s", err, out)
	}
	_, run := onlyRun(t, filepath.Join(results, "gate-inject"))
	us := medianCPU(run, "base", false)
	if us <= 0 {
		t.Fatalf("baseline run measured no server CPU per request: %+v", run.Trials)
	}
	return us
}
