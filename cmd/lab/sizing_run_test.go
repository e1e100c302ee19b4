package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// sizingExperiment measures the heavy embed with the target held by a
// drop-in setting (%s = %s) the direct supervisor applies in a cgroup.
const sizingExperiment = `
name = "sizing"
scenarios = ["GETAllEmbed"]
[load]
model = "closed"
connections = 8
duration = "2s"
warmup = "0s"
[trials]
min = 2
max = 2
[[variant]]
name = "roomy"
baseline = true
[[variant]]
name = "tight"
[variant.dropin]
%s = "%s"
`

// The real PostgREST under the direct supervisor with a memory limit its
// heavy scenario goes past: the kernel OOM-kills it in its cgroup, the
// trial fails as an OOM kill and the run's events and report say so. A
// setting this host cannot apply (MemoryHigh= on cgroup v1) stops the run
// before its first trial, with a non-zero exit naming it.
func TestRunOOMKillUnderDirectMemoryMax(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if os.Geteuid() != 0 {
		labtest.Need(t, "root, to make cgroups for the direct supervisor")
	}
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil {
		t.Fatalf("fixture chinook: %v\n%s", err, out)
	}
	const limit = "24M" // PostgREST starts in it (about 20 MiB anonymous) and needs more for the embed
	exp := filepath.Join(t.TempDir(), "sizing.toml")
	write := func(key, val string) {
		if err := os.WriteFile(exp, []byte(fmt.Sprintf(sizingExperiment, key, val)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("MemoryMax", limit)
	results := t.TempDir()
	out, err := runLab(t, "run", exp, "--dir", dir, "--results", results)
	t.Logf("lab run: %v\n%s", err, out)
	var runJSON, report string
	_ = filepath.Walk(results, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			switch fi.Name() {
			case "run.json":
				runJSON = string(b)
			case "report.md":
				report = string(b)
			}
		}
		return nil
	})
	if !strings.Contains(runJSON, `"oom-kill"`) {
		t.Errorf("run.json has no oom-kill event:\n%s", runJSON)
	}
	if !strings.Contains(report, "oom-kill") {
		t.Errorf("report.md does not show the OOM kill:\n%s", report)
	}

	if _, err := os.Stat("/sys/fs/cgroup/memory/memory.limit_in_bytes"); err == nil { // v1 memory controller: no memory.high
		write("MemoryHigh", "64M")
		out, err := runLab(t, "run", exp, "--dir", dir, "--results", t.TempDir())
		if err == nil || !strings.Contains(err.Error()+out, "MemoryHigh") || !strings.Contains(err.Error()+out, "direct supervisor") ||
			!strings.Contains(err.Error()+out, "before the first trial") {
			t.Errorf("MemoryHigh= on cgroup v1: %v\n%s", err, out)
		}
	}
}
