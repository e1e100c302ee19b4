package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lab plan takes the noise from an earlier run when given one, else
// from --cv; more noise or a smaller effect needs more rounds.
func TestPlan(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	rounds := func(args ...string) (int, string) {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), append([]string{"plan", "socket-vs-tcp"}, args...), &out, &errb); err != nil {
			t.Fatalf("lab plan %v: %v\n%s", args, err, errb.String())
		}
		m := regexp.MustCompile(`needs +(\d+) rounds`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("lab plan %v: no 'needs N rounds' in\n%s", args, out.String())
		}
		n, _ := strconv.Atoi(m[1])
		return n, out.String()
	}
	empty := t.TempDir()
	n3, out := rounds("--effect", "3%", "--results", empty)
	if !strings.Contains(out, "assumed: 5.0% noise per trial") || !strings.Contains(out, "no earlier run of socket-vs-tcp under "+empty) ||
		!strings.Contains(out, "raise trials.max to "+strconv.Itoa(n3)+" (or --max-trials "+strconv.Itoa(n3)+")") {
		t.Errorf("default noise: output\n%s", out)
	}
	n6, _ := rounds("--effect", "6", "--results", empty)
	quiet, _ := rounds("--effect", "3%", "--cv", "0.02")
	if !(n6 < n3 && quiet < n3) {
		t.Errorf("rounds: 3%% %d, 6%% %d, 3%% at 2%% noise %d: want fewer for larger effects and less noise", n3, n6, quiet)
	}
	dir := resultDir(t, filepath.Join(t.TempDir(), "r"), 2400, 3, time.Now())
	nFrom, out := rounds("--effect", "3%", "--from", dir)
	if !strings.Contains(out, "measured in "+dir+": spread of per-round ratios") || nFrom >= n3 {
		t.Errorf("--from a 2%%-noise run: %d rounds (default noise: %d)\n%s", nFrom, n3, out)
	}
	// Without --from, the newest run of the experiment under --results.
	results := t.TempDir()
	resultDir(t, filepath.Join(results, "socket-vs-tcp", "old"), 2400, 4, time.Now().Add(-time.Hour))
	newest := resultDir(t, filepath.Join(results, "socket-vs-tcp", "new"), 2400, 5, time.Now())
	if _, out := rounds("--effect", "3%", "--results", results); !strings.Contains(out, "measured in "+newest+":") {
		t.Errorf("plan without --from: want the newest run %s\n%s", newest, out)
	}
	// --cv is the user's noise: no run is looked for.
	if _, out := rounds("--effect", "3%", "--results", results, "--cv", "0.03"); !strings.Contains(out, "assumed: 3.0% noise") {
		t.Errorf("plan --cv: want the given noise\n%s", out)
	}
	// A goal out of reach is said plainly, on lines of its own.
	var oor bytes.Buffer
	if err := run(context.Background(), []string{"plan", "socket-vs-tcp", "--effect", "0.5%", "--results", empty}, &oor, &oor); err != nil {
		t.Fatalf("lab plan --effect 0.5%%: %v", err)
	}
	if !regexp.MustCompile(`(?m)^  out of reach: a ±0\.5% change`).MatchString(oor.String()) || strings.Contains(oor.String(), "raise trials.max") {
		t.Errorf("out of reach:\n%s", oor.String())
	}
	for _, bad := range [][]string{{"--effect", "x"}, {}, {"--effect", "3", "--cv", "2"}} {
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"plan", "socket-vs-tcp"}, bad...), &out, &out); err == nil || exitCode(err) != 2 {
			t.Errorf("lab plan %v: err %v, want a usage error", bad, err)
		}
	}
}
