package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/agent"
	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// netnsPair makes two network namespaces joined by a veth pair, with
// 10.231.N.1/30 (server side) and 10.231.N.2/30 (driver side) and loopback
// up in each; both are deleted at cleanup. It returns the namespace names
// the server address and the driver's veth.
func netnsPair(t *testing.T) (server, driver, serverIP, driverLink string) {
	t.Helper()
	n := netnsStar(t, 1)
	return n.hosts[0], n.driver, n.ips[0], n.links[0]
}

// netns is a driver namespace joined to host namespaces, each by its own
// veth pair: host i is 10.231.N.(4i+1)/30, the driver's end 4i+2.
type netns struct {
	driver string
	hosts  []string // the hosts' namespaces
	ips    []string // each host's address
	links  []string // the driver's veth to each host
}

// netnsStar makes a driver namespace and n host namespaces, with loopback
// up in each; all are deleted at cleanup, also when the test fails.
func netnsStar(t *testing.T, n int) netns {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil {
		labtest.Need(t, "ip (iproute2) for network namespaces: %v", err)
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:2])
	ns := netns{driver: "lab-drv-" + id}
	if out, err := exec.Command("ip", "netns", "add", ns.driver).CombinedOutput(); err != nil {
		labtest.Need(t, "ip netns add (root and CAP_SYS_ADMIN needed): %v: %s", err, out)
	}
	t.Cleanup(func() {
		for _, name := range append([]string{ns.driver}, ns.hosts...) {
			if out, err := exec.Command("ip", "netns", "del", name).CombinedOutput(); err != nil && !strings.Contains(string(out), "No such file") {
				t.Errorf("ip netns del %s: %v: %s", name, err, out)
			}
		}
	})
	cmds := [][]string{{"-n", ns.driver, "link", "set", "lo", "up"}}
	for i := 0; i < n; i++ {
		host := fmt.Sprintf("lab-srv-%s", id)
		if i > 0 {
			host = fmt.Sprintf("lab-srv%d-%s", i, id)
		}
		if out, err := exec.Command("ip", "netns", "add", host).CombinedOutput(); err != nil {
			t.Fatalf("ip netns add %s: %v: %s", host, err, out)
		}
		ns.hosts = append(ns.hosts, host)
		vs, vd := fmt.Sprintf("lvs%d%s", i, id), fmt.Sprintf("lvd%d%s", i, id)
		if i == 0 {
			vs, vd = "lvs"+id, "lvd"+id
		}
		ip, drv := fmt.Sprintf("10.231.%d.%d", b[2], 4*i+1), fmt.Sprintf("10.231.%d.%d", b[2], 4*i+2)
		ns.ips, ns.links = append(ns.ips, ip), append(ns.links, vd)
		cmds = append(cmds,
			[]string{"link", "add", vs, "type", "veth", "peer", "name", vd},
			[]string{"link", "set", vs, "netns", host},
			[]string{"link", "set", vd, "netns", ns.driver},
			[]string{"-n", host, "addr", "add", ip + "/30", "dev", vs},
			[]string{"-n", ns.driver, "addr", "add", drv + "/30", "dev", vd},
			[]string{"-n", host, "link", "set", "lo", "up"},
			[]string{"-n", host, "link", "set", vs, "up"},
			[]string{"-n", ns.driver, "link", "set", vd, "up"})
	}
	for _, args := range cmds {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v: %s", args, err, out)
		}
	}
	return ns
}

// serveAllAddresses makes a stack's target listen where a driver in another
// namespace can reach it: all IPv4 addresses of its namespace (loopback and
// the veth), as a user sets server-host on a real server. It returns the
// config file and its new content.
func serveAllAddresses(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	conf := filepath.Join(dir, "postgrest.conf")
	src, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := configs.Parse(conf, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := cf.Set("server-host", configs.String("*4")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, cf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return conf, cf.Bytes()
}

// TestRunAcrossNetworkNamespaces is the two-host setup of the original
// benchmark on one machine: PostgreSQL, the target and `lab agent` (TLS,
// token) in one network namespace, `lab run --agent` generating the load in
// another, joined only by a veth pair. A shortened socket-vs-tcp run must
// complete with measured trials and telemetry on both variants, and the
// target's config must be the original afterwards; a second run completes
// through a 2 s outage of the link (shorter than the lease) without the
// agent restoring in between.
func TestRunAcrossNetworkNamespaces(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	srvNS, drvNS, ip, link := netnsPair(t)
	labBin := buildLab(t)
	inSrv, inDrv := []string{"ip", "netns", "exec", srvNS}, []string{"ip", "netns", "exec", drvNS}
	dir := stackUp(t, inSrv, labBin)

	conf, original := serveAllAddresses(t, dir)

	tmp := t.TempDir()
	certs := agenttest.NewCerts(t, ip)
	tok := agenttest.TokenFile(t, agentTestToken)
	cfg := writeFile(t, tmp, "agent.toml", fmt.Sprintf(`listen = "%s:0"
advertise_host = %q
lease = "5s"
token_file = %q
[stack]
dir = %q
[tls]
cert = %q
key = %q
`, ip, ip, tok, dir, certs.ServerCert, certs.ServerKey), 0o600)
	addr, agentOut := startAgent(t, inSrv, labBin, cfg)

	results := t.TempDir()
	argv := append(append([]string{}, inDrv...), labBin, "run", "socket-vs-tcp", "--agent", "https://"+addr, "--token-file", tok,
		"--ca", certs.CA, "--results", results, "--min-trials", "2", "--max-trials", "2", "--duration", "2s", "--warmup", "500ms",
		"--min-rate", tinyRate, "--max-rate", tinyRate)
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("lab run --agent across namespaces: %v\n%s\n--- agent\n%s", err, out, agentOut.String())
	}
	t.Logf("driver output:\n%s", out)
	if !strings.Contains(string(out), "dropped ≤ 1 %, at most "+tinyRate+" req/s") {
		t.Errorf("the report's capacity line does not state the search's --max-rate %s", tinyRate)
	}

	runs, _ := filepath.Glob(filepath.Join(results, "socket-vs-tcp", "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("want one run.json, found %v", runs)
	}
	run, err := record.Read(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(run.Target.URL, "http://"+ip+":") {
		t.Errorf("target URL %s: want the advertised %s", run.Target.URL, ip)
	}
	seen := map[string]int{}
	for _, tr := range run.Trials {
		if tr.Error != "" || tr.Load.Requests == 0 || tr.Load.Errors > 0 || len(tr.Server.Samples) < 10 || tr.Server.CPUSeconds <= 0 || tr.Database.CPUSeconds <= 0 ||
			tr.SpeedRefNs <= 0 {
			t.Errorf("trial %d (%s): error %q, %d requests, %d errors, %d samples, %.3f CPU s, speed reference %.0f ns (measured by the agent)", tr.Seq, tr.Variant, tr.Error,
				tr.Load.Requests, tr.Load.Errors, len(tr.Server.Samples), tr.Server.CPUSeconds, tr.SpeedRefNs)
		}
		seen[tr.Variant]++
	}
	if seen["tcp"] != 2 || seen["unix"] != 2 {
		t.Errorf("trials per variant: %v, want 2 each", seen)
	}
	if run.Agent == nil || run.Agent.URL != "https://"+addr || run.Agent.ClockError <= 0 {
		t.Errorf("run.json: agent %+v, want the agent's URL and a measured clock", run.Agent)
	} else {
		t.Logf("clock offset %v ± %v", run.Agent.ClockOffset, run.Agent.ClockError)
	}
	if after, _ := os.ReadFile(conf); string(after) != string(original) {
		t.Fatalf("config not the original after the run:\n%s", after)
	}

	// Again, with the link down for 2 s in the middle of the run: the
	// driver retries, the lease (5 s) holds, the run completes.
	var out2 lockedBuffer
	argv = append(argv[:len(argv):len(argv)], "--results", t.TempDir()) // the last --results counts
	driver := exec.Command(argv[0], argv[1:]...)
	driver.Stdout, driver.Stderr = &out2, &out2
	if err := driver.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- driver.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(out2.String(), "[2/4]") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if out, err := exec.Command("ip", "-n", drvNS, "link", "set", link, "down").CombinedOutput(); err != nil {
		t.Fatalf("link down: %v %s", err, out)
	}
	time.Sleep(2 * time.Second)
	if out, err := exec.Command("ip", "-n", drvNS, "link", "set", link, "up").CombinedOutput(); err != nil {
		t.Fatalf("link up: %v %s", err, out)
	}
	select {
	case err := <-done:
		if err != nil || !strings.Contains(out2.String(), "[4/4]") {
			t.Fatalf("run with a 2 s outage: %v\n%s\n--- agent\n%s", err, out2.String(), agentOut.String())
		}
	case <-time.After(3 * time.Minute):
		_ = driver.Process.Kill()
		t.Fatalf("run with a 2 s outage did not end:\n%s", out2.String())
	}
	if strings.Contains(agentOut.String(), "expired") {
		t.Errorf("the lease expired during a 2 s outage:\n%s", agentOut.String())
	}
	t.Logf("run with a 2 s outage:\n%s", out2.String())
	if after, _ := os.ReadFile(conf); string(after) != string(original) {
		t.Fatalf("config not the original after the second run:\n%s", after)
	}
	_ = agent.APIVersion
}
