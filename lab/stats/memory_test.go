package stats

import (
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func TestMemoryFloor(t *testing.T) {
	run := &lab.Run{Experiment: lab.Experiment{Scenarios: []string{"GETAllEmbed"}}}
	for _, lim := range []string{"64M", "24M", "32M", "48M"} {
		run.Variants = append(run.Variants, lab.VariantInfo{Name: "m" + lim, Changes: []lab.Change{{Where: "dropin", Key: "MemoryMax", To: lim}}})
	}
	add := func(v string, oom bool, rss uint64, ready time.Duration) {
		tr := lab.Trial{Variant: v, Scenario: "GETAllEmbed", Server: lab.Usage{PeakRSS: rss}, ReadyAfter: ready}
		if oom {
			tr.Error = "crash: killed by the OOM killer"
			tr.Events = []lab.Event{{Kind: lab.EventOOMKill, Source: "postgrest"}}
		}
		run.Trials = append(run.Trials, tr)
	}
	add("m24M", true, 0, time.Second)
	add("m24M", true, 0, 800*time.Millisecond)
	add("m24M", true, 0, 1200*time.Millisecond)
	add("m32M", false, 30<<20, time.Second)
	add("m32M", true, 0, time.Second) // killed once: 32M is not enough
	add("m48M", false, 40<<20, time.Second)
	add("m48M", false, 41<<20, time.Second)
	add("m64M", false, 42<<20, time.Second)
	add("m64M", false, 40<<20, time.Second)
	run.Trials[len(run.Trials)-1].Server.PeakCgroup = 30 << 20
	run.Trials = append(run.Trials, lab.Trial{Variant: "m64M", Scenario: "GETAllEmbed", Server: lab.Usage{PeakRSS: 39 << 20, PeakCgroup: 31 << 20},
		Error: "interference: other work used more than 10% of the machine's CPUs in round 3"}) // ran: no failure
	fs := MemoryFloors(run)
	if len(fs) != 1 || len(fs[0].Rows) != 4 {
		t.Fatalf("floors %+v", fs)
	}
	f := fs[0]
	if f.Floor != "48M" {
		t.Errorf("floor %q, want 48M (32M was killed once)", f.Floor)
	}
	if f.Rows[0].Limit != "24M" || f.Rows[0].OOMKills != 3 || f.Rows[0].Recovery != time.Second {
		t.Errorf("24M row %+v: want 3 kills, recovery the median of the next trials' restarts (1s)", f.Rows[0])
	}
	if f.Rows[2].PeakRSS != 41<<20 {
		t.Errorf("48M peak %d", f.Rows[2].PeakRSS)
	}
	if r := f.Rows[3]; r.Failed != 0 || r.Trials != 3 || r.PeakCgroup != 31<<20 || r.PeakRSS != 42<<20 {
		t.Errorf("64M row %+v: want 3 trials, none failed (interference is no failure), cgroup peak 31 MiB, RSS 42 MiB", r)
	}
	// A limit the target cannot even start under is no floor either.
	run.Variants = append(run.Variants, lab.VariantInfo{Name: "m96M", Changes: []lab.Change{{Where: "dropin", Key: "MemoryMax", To: "96M"}}})
	run.Trials = append(run.Trials, lab.Trial{Variant: "m96M", Scenario: "GETAllEmbed", Error: "not ready: variant m96M: not ready after 1m"})
	if f := MemoryFloors(run)[0]; f.Floor != "" || f.Rows[4].Failed != 1 {
		t.Errorf("floor %q with a larger limit that failed (%+v), want none", f.Floor, f.Rows[4])
	}
	if ParseMemory("1.5G") != 3<<29 || ParseMemory("infinity") != 0 || ParseMemory("4096") != 4096 {
		t.Error("ParseMemory")
	}
}
