package session

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func TestPlanMatrix(t *testing.T) {
	driver := lab.Host{Hostname: "driver", HostID: "d"}
	a, b, c := lab.Host{Hostname: "a", HostID: "1"}, lab.Host{Hostname: "b", HostID: "2"}, lab.Host{Hostname: "c", HostID: "3"}
	exp := func(gen string) *lab.Experiment { return &lab.Experiment{Partition: lab.Partition{Generator: gen}} }
	for _, tc := range []struct {
		name       string
		hosts      []lab.Host
		gen        string
		concurrent bool
		why        string
		generators []string
	}{
		{"distinct, a CPU each", []lab.Host{a, b}, "0-1", true, "own CPUs (a 0, b 1)", []string{"0", "1"}},
		{"distinct, split evenly", []lab.Host{a, b, c}, "2-8", true, "(a 2,3, b 4,5, c 6,7)", []string{"2,3", "4,5", "6,7"}},
		{"same machine", []lab.Host{a, {Hostname: "a2", HostID: "1"}}, "0-1", false, "a and a2 report the same machine", nil},
		{"the driver's machine", []lab.Host{a, {Hostname: "d", HostID: "d"}}, "0-1", false, "this driver's own machine", nil},
		{"no identity", []lab.Host{a, {Hostname: "x"}}, "0-1", false, "does not report its machine's identity", nil},
		{"no partition", []lab.Host{a, b}, "", false, "no [partition] generator", nil},
		{"too few CPUs", []lab.Host{a, b, c}, "0,1", false, "lists 2 CPU(s) for 3 hosts", nil},
		{"one host", []lab.Host{a}, "0-1", false, "one host", nil},
	} {
		var labels []string
		for _, h := range tc.hosts {
			labels = append(labels, h.Hostname)
		}
		p := planMatrix(driver, tc.hosts, labels, exp(tc.gen))
		if p.concurrent != tc.concurrent || !strings.Contains(p.why, tc.why) || strings.Join(p.generators, "|") != strings.Join(tc.generators, "|") {
			t.Errorf("%s: %+v, want concurrent %v, generators %v, why containing %q", tc.name, p, tc.concurrent, tc.generators, tc.why)
		}
	}
}

// A host's label is a directory name under RESULTS, whatever its agent says.
func TestHostLabel(t *testing.T) {
	for _, tc := range []struct{ hostname, url, want string }{
		{"db1", "https://10.0.0.5:7171", "db1"},
		{"", "https://10.0.0.5:7171", "10.0.0.5"},
		{"..", "https://10.0.0.5:7171", "10.0.0.5"},
		{"../../etc", "https://10.0.0.5:7171", ".._.._etc"},
		{"a\x1b[2Jb", "https://x:1", "a__2Jb"},
		{"h|<b>\n[x](y) é", "https://x:1", "h__b___x__y___"},
		{strings.Repeat("x", 65), "https://[::1]:7171", "__1"},
	} {
		if got := hostLabel(lab.Host{Hostname: tc.hostname}, tc.url); got != tc.want {
			t.Errorf("hostLabel(%q, %q) = %q, want %q", tc.hostname, tc.url, got, tc.want)
		}
	}
}
