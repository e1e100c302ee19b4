package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// matrixExperiment is a tiny two-scenario, two-variant experiment.
const matrixExperiment = `name = "matrix-tiny"
title = "Matrix test"
scenarios = ["GETSingle", "GETSingleEmbed"]
[load]
model = "closed"
connections = 4
duration = "1s"
warmup = "0s"
[trials]
min = 2
max = 2
[[variant]]
name = "tcp"
baseline = true
postgrest = { db-uri = "tcp" }
[[variant]]
name = "unix"
postgrest = { db-uri = "unix" }
`

// TestMatrixNetns: two hosts, each a network namespace
// with its own PostgreSQL, target and `lab agent` (TLS, its own token),
// and `lab run --agent A --agent B --agent B'` in a third namespace joined
// to each by a veth pair. B' is B's agent given a wrong token: it fails,
// and the run still writes one matrix report with A and B side by side in
// every scenario, B' named as failed with why, a result directory per
// measured host and B's statistical comparison with A. On the real
// PostgREST and on postgrest-mini. Both hosts are this machine: on the
// real PostgREST they say so and run one after another; on postgrest-mini
// their agents claim distinct machines (host_id, as for cloned VMs) and,
// with a CPU of the [partition] generator each, run at the same time.
func TestMatrixNetns(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	labBin := buildLab(t)
	for _, tg := range labTargets(labBin) {
		t.Run(tg.name, func(t *testing.T) { matrixAcrossNamespaces(t, labBin, tg) })
	}
}

func matrixAcrossNamespaces(t *testing.T, labBin string, tg labTarget) {
	targetArgs := tg.flags(t)
	concurrent := tg.reference && runtime.NumCPU() >= 2
	ns := netnsStar(t, 2)
	tmp := t.TempDir()
	certs := agenttest.NewCerts(t, ns.ips...)
	var args, urls []string
	for i, host := range ns.hosts {
		in := []string{"ip", "netns", "exec", host}
		dir := stackUp(t, in, labBin, targetArgs...)
		serveAllAddresses(t, dir)
		tok := writeFile(t, tmp, fmt.Sprintf("host%d.token", i), fmt.Sprintf("host-%d-token-0123456789abcdef", i), 0o600)
		hostID := ""
		if concurrent {
			hostID = fmt.Sprintf("host_id = \"test-machine-%d\"\n", i)
		}
		cfg := writeFile(t, tmp, fmt.Sprintf("agent%d.toml", i), hostID+fmt.Sprintf(`listen = "%s:0"
advertise_host = %q
token_file = %q
[stack]
dir = %q
[tls]
cert = %q
key = %q
`, ns.ips[i], ns.ips[i], tok, dir, certs.ServerCert, certs.ServerKey), 0o600)
		addr, _ := startAgent(t, in, labBin, cfg)
		urls = append(urls, "https://"+addr)
		args = append(args, "--agent", urls[i], "--token-file", tok)
	}
	// B again, with A's token: B refuses it, and only B is sent it.
	args = append(args, "--agent", urls[1], "--token-file", filepath.Join(tmp, "host0.token"))
	src := matrixExperiment
	if concurrent {
		src += "[partition]\ngenerator = \"0-1\"\n"
	}
	exp := writeFile(t, tmp, "matrix.toml", src, 0o644)
	results := t.TempDir()
	argv := append([]string{"ip", "netns", "exec", ns.driver, labBin, "run", exp, "--ca", certs.CA, "--results", results}, args...)
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	t.Logf("driver output:\n%s", out)
	if err == nil || !strings.Contains(err.Error(), "exit status") {
		t.Fatalf("lab run with a failing agent: %v, want a failure exit", err)
	}

	mdirs, _ := filepath.Glob(filepath.Join(results, "matrix", "matrix-tiny", "*"))
	if len(mdirs) != 1 {
		t.Fatalf("want one matrix report, found %v", mdirs)
	}
	var m struct {
		Concurrent bool
		Schedule   string
		Reference  string
		Hosts      []struct {
			Label, Agent, Dir, Error string
			Generator                string `json:"generator_cpus"`
		}
		Scenarios []struct {
			Name  string
			Cells []struct {
				Variant, Host string
				Trials        int
				RateJ         *float64 `json:"rate"`
				P99J          *float64 `json:"p99_ms"`
				CPUJ          *float64 `json:"cpu_us_per_req"`
				RateRatio     *float64 `json:"rate_ratio"`
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(mdirs[0], "matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("matrix.json: %v\n%s", err, b)
	}
	if len(m.Hosts) != 3 || m.Hosts[0].Error != "" || m.Hosts[1].Error != "" || !strings.Contains(m.Hosts[2].Error, "401") {
		t.Fatalf("hosts %+v: want A and B measured, B' failed with 401", m.Hosts)
	}
	a, bl, failed := m.Hosts[0].Label, m.Hosts[1].Label, m.Hosts[2].Label
	if concurrent {
		if !m.Concurrent || !strings.Contains(m.Schedule, "distinct machines") || m.Hosts[0].Generator != "0" || m.Hosts[1].Generator != "1" ||
			!strings.Contains(string(out), "["+bl+"] [8/8]") {
			t.Errorf("schedule: concurrent %v, %q, generators %q %q: want at the same time, one CPU each, output prefixed",
				m.Concurrent, m.Schedule, m.Hosts[0].Generator, m.Hosts[1].Generator)
		}
	} else if m.Concurrent || !(strings.Contains(m.Schedule, "report the same machine") || strings.Contains(m.Schedule, "this driver's own machine")) {
		// All three are this one machine: whichever reason comes first.
		t.Errorf("schedule: concurrent %v, %q: want one after another, the hosts and the driver being one machine", m.Concurrent, m.Schedule)
	}
	if m.Reference != a || a == bl || bl == failed {
		t.Errorf("labels %q %q %q, reference %q", a, bl, failed, m.Reference)
	}
	var names []string
	for _, sc := range m.Scenarios {
		names = append(names, sc.Name)
		seen := map[string]int{}
		for _, c := range sc.Cells {
			if c.Host == failed {
				if c.Trials != 0 || c.RateJ != nil {
					t.Errorf("%s: failed host's cell %+v", sc.Name, c)
				}
				continue
			}
			seen[c.Host]++
			if c.Trials != 2 || c.RateJ == nil || *c.RateJ <= 0 || c.P99J == nil || c.CPUJ == nil || *c.CPUJ <= 0 || c.RateRatio == nil {
				t.Errorf("%s %s on %s: %d trials, rate %v, p99 %v, CPU/req %v, ratio %v", sc.Name, c.Variant, c.Host, c.Trials,
					c.RateJ, c.P99J, c.CPUJ, c.RateRatio)
			} else if c.Host == a && *c.RateRatio != 1 {
				t.Errorf("%s %s: reference host's ratio %v", sc.Name, c.Variant, *c.RateRatio)
			}
		}
		if seen[a] != 2 || seen[bl] != 2 {
			t.Errorf("%s: cells per host %v, want both variants on %s and %s", sc.Name, seen, a, bl)
		}
	}
	if strings.Join(names, ",") != "GETSingle,GETSingleEmbed" {
		t.Errorf("matrix scenarios %v", names)
	}
	md, _ := os.ReadFile(filepath.Join(mdirs[0], "matrix.md"))
	html, _ := os.ReadFile(filepath.Join(mdirs[0], "matrix.html"))
	for _, want := range []string{"### GETSingle", "### GETSingleEmbed", "| tcp | " + a + " |", "| unix | " + bl + " |", "failed: "} {
		if !strings.Contains(string(md), want) {
			t.Errorf("matrix.md lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(string(html), `<svg class="chart"`); n < 4 {
		t.Errorf("matrix.html has %d charts, want each host's", n)
	}
	if !strings.Contains(string(out), "Matrix: Matrix test on 3 hosts") || !strings.Contains(string(out), "GETSingleEmbed across hosts:") {
		t.Errorf("no matrix in the terminal output")
	}
	// Each measured host keeps its own result directory and verdicts.
	for i, h := range m.Hosts[:2] {
		run, err := record.ReadDir(h.Dir)
		if err != nil {
			t.Fatalf("%s: %v", h.Label, err)
		}
		if run.Agent == nil || run.Agent.URL != urls[i] || run.Target.Reference != tg.reference || len(run.Trials) != 8 {
			t.Errorf("%s: agent %+v, reference %v, %d trials", h.Label, run.Agent, run.Target.Reference, len(run.Trials))
		}
		if _, err := os.Stat(filepath.Join(h.Dir, "verdicts.json")); err != nil {
			t.Errorf("%s: %v", h.Label, err)
		}
	}
	// And B's statistical comparison with A (as lab compare); none for the
	// failed B', which has no result directory.
	hosts, _ := filepath.Glob(filepath.Join(results, "hosts-*-vs-*.md"))
	if want := filepath.Join(results, "hosts-"+bl+"-vs-"+a+".md"); len(hosts) != 1 || hosts[0] != want {
		t.Fatalf("host comparisons %v, want only %s", hosts, want)
	}
	if b, _ := os.ReadFile(hosts[0]); !strings.Contains(string(b), "throughput") {
		t.Errorf("host comparison without a throughput row:\n%s", b)
	}
}
