package agent

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// BenchmarkCalls compares the run loop's calls on the real server side in
// process and through the agent (TLS on loopback, same stack):
//
//	go test ./host/agent -run XXX -bench Calls -benchtime 10x
//
// apply includes the target's restart and readiness gate; watch-stop the
// telemetry start and end (PostgreSQL counters read twice).
func BenchmarkCalls(b *testing.B) {
	local, _ := realStack(b)
	certs := agenttest.NewCerts(b, "127.0.0.1")
	stc, err := ServerTLS(TLSFiles{Cert: certs.ServerCert, Key: certs.ServerKey})
	if err != nil {
		b.Fatal(err)
	}
	h, err := NewHandler(local, Options{Token: []byte(testToken), Policy: DefaultPolicy()})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.TLS = stc
	ts.StartTLS()
	b.Cleanup(ts.Close)
	ctc, _ := ClientTLS(certs.CA, "", "")
	c, err := NewClient(ts.URL, ClientOptions{Token: []byte(testToken), TLS: ctc})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Open(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close(ctx) })
	variants := []lab.Variant{
		{Name: "tcp", PostgREST: map[string]string{"db-uri": "tcp"}},
		{Name: "unix", PostgREST: map[string]string{"db-uri": "unix"}},
	}
	for _, s := range []struct {
		name string
		srv  lab.Server
	}{{"in-process", local}, {"agent", c}} {
		b.Run(s.name+"/describe", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := s.srv.Describe(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/apply", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := s.srv.Apply(ctx, variants[i%2]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.name+"/watch-stop", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w, err := s.srv.Watch(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Stop(ctx, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
		if err := s.srv.Restore(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProtocol is the agent's own cost per call: a server that does
// nothing, reached over TLS on loopback with a kept-alive connection.
func BenchmarkProtocol(b *testing.B) {
	certs := agenttest.NewCerts(b, "127.0.0.1")
	stc, err := ServerTLS(TLSFiles{Cert: certs.ServerCert, Key: certs.ServerKey})
	if err != nil {
		b.Fatal(err)
	}
	h, err := NewHandler(&fakeServer{}, Options{Token: []byte(testToken), Policy: DefaultPolicy()})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.TLS = stc
	ts.StartTLS()
	b.Cleanup(ts.Close)
	ctc, _ := ClientTLS(certs.CA, "", "")
	c, err := NewClient(ts.URL, ClientOptions{Token: []byte(testToken), TLS: ctc})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Open(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close(ctx) })
	v := lab.Variant{Name: "unix", PostgREST: map[string]string{"db-uri": "unix", "db-pool": "3"}}
	b.Run("apply", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := c.Apply(ctx, v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("watch-stop", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			w, err := c.Watch(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := w.Stop(ctx, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
