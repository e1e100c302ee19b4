package agent

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// refusal is a request the agent must refuse with status.
type refusal struct {
	name   string
	method string
	path   string
	body   string
	token  string // "" = none, "-" = the right one
	noSess bool
	status int
	want   string // in the error message
}

func refusals() []refusal {
	big := `{"variant":{"name":"big","postgrest":{"db-schemas":"` + strings.Repeat("x", MaxBody) + `"}}}`
	return []refusal{
		{"no token", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"db-pool":"3"}}}`, "", false, 401, "missing bearer token"},
		{"no token describe", "GET", "/describe", "", "", false, 401, "missing bearer token"},
		{"wrong token", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"db-pool":"3"}}}`, "wrong-token-wrong-token-wrong!!", false, 401, "wrong bearer token"},
		{"no session", "POST", "/apply", `{"variant":{"name":"v"}}`, "-", true, 400, "open a session first"},
		{"names a config file", "POST", "/apply", `{"config":"/etc/passwd","variant":{"name":"v"}}`, "-", false, 400, `unknown field "config"`},
		{"names a unit", "POST", "/apply", `{"variant":{"name":"v","unit":"ssh.service"}}`, "-", false, 400, `unknown field "unit"`},
		{"binary outside allow-list", "POST", "/apply", `{"variant":{"name":"v","binary":"/bin/sh"}}`, "-", false, 403, "allowed binaries"},
		{"ExecStart drop-in", "POST", "/apply", `{"variant":{"name":"v","dropin":{"ExecStart":"/bin/sh -c id"}}}`, "-", false, 403, "dropin.ExecStart"},
		{"PostgreSQL affinity not a CPU list", "POST", "/apply", `{"variant":{"name":"v","pg_cpu_affinity":"0\nExecStartPre=/bin/sh"}}`, "-", false, 422, "partition.postgresql: non-printing character"},
		{"PostgreSQL affinity a command", "POST", "/apply", `{"variant":{"name":"v","pg_cpu_affinity":"0; id"}}`, "-", false, 422, "partition.postgresql: "},
		{"LD_PRELOAD", "POST", "/apply", `{"variant":{"name":"v","env":{"LD_PRELOAD":"/tmp/x.so"}}}`, "-", false, 403, "env.LD_PRELOAD"},
		{"archive_command", "POST", "/apply", `{"variant":{"name":"v","postgresql":{"archive_command":"rm -rf /"}}}`, "-", false, 403, "postgresql.archive_command"},
		{"socket path", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"server-unix-socket":"/etc/passwd"}}}`, "-", false, 403, "server-unix-socket"},
		{"foreign db-uri", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"db-uri":"postgres://x@10.9.9.9/db"}}}`, "-", false, 403, "only \"tcp\" or \"unix\""},
		{"@file value", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"jwt-secret":"@/etc/shadow"}}}`, "-", false, 403, "@file"},
		{"injected config line", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"db-schemas":"public\"\ndb-uri = \"postgres://evil@10.9.9.9/x"}}}`, "-", false, 422, "non-printing character"},
		{"injected key", "POST", "/apply", `{"variant":{"name":"v","postgrest":{"db-pool\ndb-uri":"3"}}}`, "-", false, 422, "non-printing character"},
		{"oversized body", "POST", "/apply", big, "-", false, 413, "larger than"},
		{"two JSON values", "POST", "/apply", `{"variant":{"name":"v"}} {"variant":{"name":"w"}}`, "-", false, 400, "more than one"},
	}
}

// checkRefusals sends every refusal through c's connection and lease.
func checkRefusals(t *testing.T, c *Client) {
	t.Helper()
	for _, r := range refusals() {
		req, _ := http.NewRequest(r.method, c.base+r.path, strings.NewReader(r.body))
		switch r.token {
		case "-":
			req.Header.Set("Authorization", "Bearer "+string(c.opt.Token))
		case "":
		default:
			req.Header.Set("Authorization", "Bearer "+r.token)
		}
		if !r.noSess {
			c.mu.Lock()
			req.Header.Set(HeaderLease, c.leaseID)
			c.mu.Unlock()
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var eb ErrorBody
		_ = json.Unmarshal(b, &eb)
		if resp.StatusCode != r.status || !strings.Contains(eb.Error, r.want) {
			t.Errorf("%s: %d %s, want %d mentioning %q", r.name, resp.StatusCode, b, r.status, r.want)
		}
	}
}

// TestRefusalsTouchNothing: every refusal is answered with its status and
// the server is never asked to do anything.
func TestRefusalsTouchNothing(t *testing.T) {
	f := &fakeServer{}
	_, ts := newAgent(t, f, Options{Policy: DefaultPolicy()})
	c := newClient(t, ts.URL, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	checkRefusals(t, c)
	if got := f.applies(); len(got) != 0 || f.restores.Load() != 0 {
		t.Fatalf("refused requests reached the server: applies %v, restores %d", got, f.restores.Load())
	}
	// An allowed variant still passes the same policy.
	if _, err := c.Apply(context.Background(), lab.Variant{Name: "ok", PostgREST: map[string]string{"db-pool": "3"}, PostgreSQL: map[string]string{"synchronous_commit": "off"}, Env: map[string]string{"PGRST_DB_POOL": "4"}, DropIn: map[string]string{"CPUAffinity": "0"}, PGCPUAffinity: "0"}); err != nil {
		t.Fatalf("allowed variant: %v", err)
	}
}

// TestConfigsEscapesInjection verifies the second line of defence: even a
// value with a line break that got past the agent's policy cannot add a
// key to a PostgREST config, because package configs renders it escaped.
func TestConfigsEscapesInjection(t *testing.T) {
	src := []byte("db-uri = \"postgres://authenticator@127.0.0.1:5432/chinook\"\ndb-schemas = \"public\"\n")
	f, err := configs.Parse("postgrest.conf", src)
	if err != nil {
		t.Fatal(err)
	}
	evil := "public\"\ndb-uri = \"postgres://evil@10.9.9.9/x"
	if err := f.Set("db-schemas", configs.String(evil)); err != nil {
		t.Fatal(err)
	}
	out := f.Bytes()
	if n := bytes.Count(out, []byte("\n")); n != 2 {
		t.Fatalf("the value added lines: %d lines\n%s", n, out)
	}
	g, err := configs.Parse("postgrest.conf", out)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := g.Get("db-uri"); strings.Contains(v.String(), "evil") {
		t.Fatalf("db-uri was injected: %s", out)
	}
	if v, _ := g.Get("db-schemas"); v.String() != evil {
		t.Fatalf("db-schemas = %q, want the value kept as one string", v.String())
	}
	if err := configs.ValidateSetting("log-level", "crit\ndb-uri = \"x\"", false); err == nil {
		t.Fatal("configs accepted a log-level with a line break")
	}
	if err := configs.ValidateSetting("db-pool\ndb-uri", "3", true); err == nil {
		t.Fatal("configs accepted a key with a line break")
	}
}

// TestTLS: plain HTTP to a TLS agent is refused; with client_ca a driver
// without a certificate or trusting another CA cannot connect.
func TestTLS(t *testing.T) {
	certs := agenttest.NewCerts(t, "127.0.0.1")
	tc, err := ServerTLS(TLSFiles{Cert: certs.ServerCert, Key: certs.ServerKey, ClientCA: certs.CA})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{}
	h, err := NewHandler(f, Options{Token: []byte(testToken), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.TLS = tc
	ts.StartTLS()
	defer ts.Close()

	// Plain HTTP to the TLS port.
	plainURL := "http://" + strings.TrimPrefix(ts.URL, "https://")
	resp, err := http.Post(plainURL+"/v1/apply", "application/json", strings.NewReader(`{"variant":{"name":"v"}}`))
	if err != nil {
		t.Fatalf("plain HTTP: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("plain HTTP to a TLS agent: %d, want 400", resp.StatusCode)
	}
	ctx := context.Background()
	try := func(name string, cfg *tls.Config, wantOK bool) {
		c := newClient(t, ts.URL, cfg)
		c.opt.RetryFor = 1
		_, err := c.Health(ctx)
		if (err == nil) != wantOK {
			t.Errorf("%s: err = %v, want ok=%v", name, err, wantOK)
		}
	}
	noCert, _ := ClientTLS(certs.CA, "", "")
	try("no client certificate", noCert, false)
	otherCA, _ := ClientTLS(certs.OtherCA, certs.ClientCert, certs.ClientKey)
	try("agent not trusted", otherCA, false)
	good, err := ClientTLS(certs.CA, certs.ClientCert, certs.ClientKey)
	if err != nil {
		t.Fatal(err)
	}
	try("client certificate", good, true)
	if len(f.applies()) != 0 {
		t.Fatal("plain HTTP request reached the server")
	}
}

// TestTokenFilePermissions: a token others can read is refused.
func TestTokenFilePermissions(t *testing.T) {
	p := agenttest.TokenFile(t, testToken)
	if tok, err := ReadToken(p); err != nil || string(tok) != testToken {
		t.Fatalf("0600: %q %v", tok, err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadToken(p); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("0644 token file: %v, want a refusal saying chmod 600", err)
	}
	short := filepath.Join(t.TempDir(), "short")
	os.WriteFile(short, []byte("abc"), 0o600)
	if _, err := ReadToken(short); err == nil {
		t.Fatal("a 3-character token was accepted")
	}
	if _, err := NewHandler(&fakeServer{}, Options{}); err == nil {
		t.Fatal("a handler without a token was made")
	}
}

// TestListenRefusesPlaintextOnNetwork: only loopback without TLS, and the
// default address is loopback (checked without binding DefaultListen's
// fixed port, which anything else on the machine may hold).
func TestListenRefusesPlaintextOnNetwork(t *testing.T) {
	if _, err := Listen(context.Background(), "0.0.0.0:0", false, false); err == nil || !strings.Contains(err.Error(), "not loopback") {
		t.Fatalf("plaintext on 0.0.0.0: %v", err)
	}
	if addr, err := listenAddr("", false, false); err != nil || addr != DefaultListen || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("default listen %q (%v), want 127.0.0.1:<port>", addr, err)
	}
	if addr, err := listenAddr("0.0.0.0:7171", true, false); err != nil || addr != "0.0.0.0:7171" {
		t.Fatalf("TLS on the network refused: %q %v", addr, err)
	}
	ln, err := Listen(context.Background(), "127.0.0.1:0", false, false)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}

// TestPolicyPinsPostgreSQLOnlyWithCPUAffinity: [partition] postgresql
// reaches an agent as the variant's PostgreSQL CPUAffinity, which the agent
// allows only when its drop-in settings include CPUAffinity.
func TestPolicyPinsPostgreSQLOnlyWithCPUAffinity(t *testing.T) {
	p := DefaultPolicy()
	v := lab.Variant{Name: "v", PGCPUAffinity: "1"}
	if err := p.Check(v); err != nil {
		t.Fatalf("default policy: %v", err)
	}
	p.DropIn = []string{"LimitNOFILE"}
	var pe *PolicyError
	if err := p.Check(v); !errors.As(err, &pe) || pe.Status != http.StatusForbidden || !strings.Contains(pe.Msg, "partition.postgresql") {
		t.Fatalf("policy without CPUAffinity: %v, want 403 naming partition.postgresql", err)
	}
}

// app.settings.x is privileged (issue 41): SQL reads it and PostgREST's
// tutorial keeps the JWT secret there. An agent allows it, as a key or
// through its PGRST_APP_SETTINGS_x variable, only when allow.postgrest_keys
// names it or holds the one pattern, "app.settings.*".
func TestPolicyAppSettingsNeedTheList(t *testing.T) {
	key := lab.Variant{Name: "v", PostgREST: map[string]string{"app.settings.jwt_secret": "x"}}
	env := lab.Variant{Name: "v", Env: map[string]string{"PGRST_APP_SETTINGS_jwt_secret": "x"}}
	for _, c := range []struct {
		keys []string
		ok   bool
	}{
		{nil, false},
		{[]string{"db-pool"}, false},
		{[]string{"app.settings.other"}, false},
		{[]string{"app.settings.jwt_secret"}, true},
		{[]string{"app.settings.*"}, true},
	} {
		p := DefaultPolicy()
		p.PostgRESTKeys = c.keys
		p.Env = append(p.Env, "PGRST_APP_SETTINGS_jwt_secret")
		for what, v := range map[string]lab.Variant{"key": key, "env": env} {
			err := p.Check(v)
			var pe *PolicyError
			if c.ok && err != nil {
				t.Errorf("postgrest_keys %q, app.settings.jwt_secret as a %s: %v, want allowed", c.keys, what, err)
			}
			if !c.ok && (!errors.As(err, &pe) || pe.Status != http.StatusForbidden || !strings.Contains(pe.Msg, "app.settings.jwt_secret")) {
				t.Errorf("postgrest_keys %q, app.settings.jwt_secret as a %s: %v, want 403 naming the key", c.keys, what, err)
			}
		}
	}
}
