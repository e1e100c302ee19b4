package report

import (
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// A sweep over MemoryMax: the report states the smallest limit without an
// OOM kill, that the limits below it failed as a floor means, the cgroup's
// peak beside RSS (which may exceed the limit), and how long the target
// took to come back after a kill.
func TestMemoryFloorInEveryFormat(t *testing.T) {
	run := &lab.Run{Experiment: lab.Experiment{Name: "memory", Load: lab.Load{Model: lab.ModelClosed, Connections: 8},
		Scenarios: []string{"GETAllEmbed"}}}
	for _, lim := range []string{"24M", "64M"} {
		run.Variants = append(run.Variants, lab.VariantInfo{Name: "MemoryMax=" + lim, Baseline: lim == "64M",
			Changes: []lab.Change{{Where: "dropin", Key: "MemoryMax", To: lim}}})
	}
	run.Trials = []lab.Trial{
		{Variant: "MemoryMax=24M", Scenario: "GETAllEmbed", Error: "crash: killed by the OOM killer", Events: []lab.Event{{Kind: lab.EventOOMKill, Source: "postgrest"}}},
		{Variant: "MemoryMax=24M", Scenario: "GETAllEmbed", ReadyAfter: 1500 * time.Millisecond, Error: "crash: killed by the OOM killer"},
		{Variant: "MemoryMax=64M", Scenario: "GETAllEmbed", Server: lab.Usage{PeakRSS: 90e6, PeakCgroup: 41e6}, Load: lab.LoadStats{Requests: 10, Rate: 2}},
	}
	md, html, term := renderAll(t, run)
	for name, out := range map[string]string{"markdown": md, "html": html, "terminal": term} {
		out = strings.Join(strings.Fields(out), " ") // Markdown wraps its paragraphs
		for _, want := range []string{"without an OOM kill, and every larger one too: 64M", format.Duration(1500 * time.Millisecond),
			"Below it 24M failed 2 of 2 trials (2 OOM kills): what a floor means, expected", "cgroup peak " + format.Bytes(41e6), "RSS " + format.Bytes(90e6)} {
			if name != "terminal" {
				want = strings.TrimPrefix(strings.TrimPrefix(want, "cgroup peak "), "RSS ")
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
}
