package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bundled pool-exhaustion experiment at a short size on the real
// PostgREST (db-pool 2, 10 and 32): at db-pool 2 the slow requests
// exhaust the pool, PostgREST answers 504 and counts acquisition timeouts
// in /metrics; at 32 neither happens; the output has the pool sizing with
// a recommended size other than 2.
func TestPoolExhaustionExperimentRuns(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	src := shortExperiment(t, "pool-exhaustion", `duration = "5s"`, `duration = "2s"`, "min = 6\nmax = 6", "min = 2\nmax = 2",
		"values = [2, 4, 8, 10, 16, 32]", "values = [2, 10, 32]")
	exp := writeExperiment(t, "pool-exhaustion", src, "pool/targets.http")
	results := t.TempDir()
	out, err := runLab(t, "run", exp, "--dir", fixtureStack(t), "--results", results)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	dirs, _ := filepath.Glob(filepath.Join(results, "pool-exhaustion", "*"))
	if len(dirs) != 1 {
		t.Fatalf("result dirs %v", dirs)
	}
	b, err := os.ReadFile(filepath.Join(dirs[0], "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Trials []struct {
			Variant string
			Load    struct {
				Requests int64
				Status   map[string]int64
			}
			DB struct {
				Pool *struct {
					Timeouts   int64
					MaxWaiting int `json:"max_waiting"`
				}
			}
		}
	}
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	gateway, timeouts, ok := map[string]int64{}, map[string]int64{}, map[string]int64{}
	for _, tr := range run.Trials {
		gateway[tr.Variant] += tr.Load.Status["504"]
		ok[tr.Variant] += tr.Load.Status["200"]
		if tr.DB.Pool == nil {
			t.Fatalf("%s: no pool metrics", tr.Variant)
		}
		timeouts[tr.Variant] += tr.DB.Pool.Timeouts
	}
	if gateway["db-pool=2"] == 0 || timeouts["db-pool=2"] == 0 {
		t.Errorf("db-pool 2: %d 504s, %d acquisition timeouts: want both > 0", gateway["db-pool=2"], timeouts["db-pool=2"])
	}
	if gateway["db-pool=32"] != 0 || timeouts["db-pool=32"] != 0 || ok["db-pool=32"] == 0 {
		t.Errorf("db-pool 32: %d 504s, %d acquisition timeouts, %d answered 200: want none, none, some", gateway["db-pool=32"], timeouts["db-pool=32"], ok["db-pool=32"])
	}
	if !strings.Contains(out, "Pool sizing: the slow requests are GET /rpc/sleep_ms?ms=200") || !strings.Contains(out, "▶ recommended") ||
		strings.Contains(out, "Pool sizing") && strings.Contains(out, "db-pool 2: the smallest pool") {
		t.Errorf("output lacks the pool sizing, or recommends db-pool 2:\n%s", out)
	}
	t.Logf("504s %v, timeouts %v, 200s %v\n%s", gateway, timeouts, ok, out)
}
