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
	n3, out := rounds("--effect", "3%")
	if !strings.Contains(out, "assumed: 5.0% noise per trial") || !strings.Contains(out, "raise trials.max") {
		t.Errorf("default noise: output\n%s", out)
	}
	n6, _ := rounds("--effect", "6")
	quiet, _ := rounds("--effect", "3%", "--cv", "0.02")
	if !(n6 < n3 && quiet < n3) {
		t.Errorf("rounds: 3%% %d, 6%% %d, 3%% at 2%% noise %d: want fewer for larger effects and less noise", n3, n6, quiet)
	}
	dir := resultDir(t, filepath.Join(t.TempDir(), "r"), 2400, 3, time.Now())
	nFrom, out := rounds("--effect", "3%", "--from", dir)
	if !strings.Contains(out, "measured in "+dir+": spread of per-round ratios") || nFrom >= n3 {
		t.Errorf("--from a 2%%-noise run: %d rounds (default noise: %d)\n%s", nFrom, n3, out)
	}
	for _, bad := range [][]string{{"--effect", "x"}, {}, {"--effect", "3", "--cv", "2"}} {
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"plan", "socket-vs-tcp"}, bad...), &out, &out); err == nil || exitCode(err) != 2 {
			t.Errorf("lab plan %v: err %v, want a usage error", bad, err)
		}
	}
}
