package agent

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// realStack brings up a local stack (supervised directly, so it needs no
// systemd) and the real server side over it; both are stopped at the end.
func realStack(t testing.TB) (*reconcile.Server, stack.Status) {
	t.Helper()
	s, st := upStack(t, systemd.ModeDirect, "")
	l, err := reconcile.New(context.Background(), localConfig(t, s, st))
	if err != nil {
		t.Fatalf("host.New: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l, st
}

// upStack brings up a local stack under supervisor with the target binary
// postgrest ("" = the default); it is taken down at the end.
func upStack(t testing.TB, supervisor systemd.Mode, postgrest string) (*stack.Stack, stack.Status) {
	t.Helper()
	if _, err := labtest.BinDir(); err != nil {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	if supervisor == systemd.ModeSystemd {
		labtest.RequireSystemd(t)
	}
	dir := labtest.StateDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := stack.Up(ctx, stack.Options{Dir: dir, Supervisor: supervisor, Postgrest: postgrest})
	if err != nil {
		t.Fatalf("stack up: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if s, err := stack.Open(dir); err == nil {
			_ = s.Down(context.Background(), true)
			s.Close()
		}
	})
	st, err := s.Status(ctx)
	if err != nil || st.Target == nil {
		t.Fatalf("status: %+v %v", st, err)
	}
	return s, st
}

// localConfig is what the real server side may touch in the stack.
func localConfig(t testing.TB, s *stack.Stack, st stack.Status) reconcile.Config {
	spec := s.TargetSpec()
	return reconcile.Config{Ctl: st.Controller, StateDir: st.Dir, Config: st.Config, TargetUnit: st.Target.Name,
		TargetSpec: &spec, TargetUser: st.TargetUser, PGUnit: st.Postgres.Name, PG: configs.PGAddr{Host: st.PGHost, Port: st.PGPort, SocketDir: st.PGSocketDir},
		AdminURI: st.AdminURI, URL: st.URL, AdminURL: st.AdminURL, Binary: st.Binary, Reference: st.Reference, Logf: t.Logf}
}

// TestRealServerOverAgent serves the real host.Server over a real stack
// through the agent over TLS: the run loop's calls change the real config,
// restart the real target and return real telemetry; refused requests
// leave the config byte-identical; Close restores the original.
func TestRealServerOverAgent(t *testing.T) {
	local, st := realStack(t)
	original, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	certs := agenttest.NewCerts(t, "127.0.0.1")
	stc, err := ServerTLS(TLSFiles{Cert: certs.ServerCert, Key: certs.ServerKey})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(local, Options{Token: []byte(testToken), Policy: DefaultPolicy(), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.TLS = stc
	ts.StartTLS()
	defer ts.Close()
	ctc, _ := ClientTLS(certs.CA, "", "")
	c := newClient(t, ts.URL, ctc)
	ctx := context.Background()
	if err := c.Open(ctx); err != nil {
		t.Fatal(err)
	}

	_, target, err := c.Describe(ctx)
	if err != nil || target.URL != st.URL || target.Config != st.Config {
		t.Fatalf("describe: %+v %v", target, err)
	}
	checkRefusals(t, c)
	// Plain HTTP to the TLS port, with the right token and lease.
	plain, _ := http.NewRequest("POST", "http://"+strings.TrimPrefix(ts.URL, "https://")+"/v1/apply",
		strings.NewReader(`{"variant":{"name":"v","postgrest":{"db-pool":"3"}}}`))
	plain.Header.Set("Authorization", "Bearer "+testToken)
	plain.Header.Set(HeaderLease, c.leaseID)
	if resp, err := http.DefaultClient.Do(plain); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("plain HTTP to the TLS agent: %v %v, want 400", resp, err)
	} else {
		resp.Body.Close()
	}
	if b, _ := os.ReadFile(st.Config); !bytes.Equal(b, original) {
		t.Fatalf("refused requests changed the config:\n%s", b)
	}

	a, err := c.Apply(ctx, lab.Variant{Name: "unix", PostgREST: map[string]string{"db-uri": "unix", "db-pool": "3"}})
	if err != nil {
		t.Fatalf("apply unix: %v", err)
	}
	if len(a.Changes) != 2 || a.ReadyAfter <= 0 {
		t.Fatalf("applied: %+v", a)
	}
	b, _ := os.ReadFile(st.Config)
	if !bytes.Contains(b, []byte("db-pool = 3")) || !bytes.Contains(b, []byte("host=")) {
		t.Fatalf("config after apply unix:\n%s", b)
	}
	w, err := c.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Some requests in the window, so the target spends CPU time.
	n := int64(0)
	for end := time.Now().Add(time.Second); time.Now().Before(end) && n < 50000; n++ {
		resp, err := http.Get(st.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	tel, err := w.Stop(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	// 10 Hz for about a second: the recording must outlive the watch call.
	if tel.Server.PeakRSS == 0 || len(tel.Server.Samples) < 8 || tel.Server.CPUSeconds <= 0 {
		t.Fatalf("telemetry of the real target over %d requests: %d samples, %.3f CPU s, peak RSS %d", n, len(tel.Server.Samples),
			tel.Server.CPUSeconds, tel.Server.PeakRSS)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(st.Config); !bytes.Equal(b, original) {
		t.Fatalf("config not restored by Close:\n--- original\n%s\n--- now\n%s", original, b)
	}
	if !strings.Contains(st.URL, "127.0.0.1") {
		t.Fatalf("target URL %s", st.URL)
	}
}
