package configs

import (
	"strings"
	"testing"
)

func TestDeriveDBURI(t *testing.T) {
	pg := PGAddr{Host: "127.0.0.1", Port: 5432, SocketDir: "/run/postgresql"}
	pg6 := PGAddr{Host: "::1", Port: 5432, SocketDir: "/run/postgresql"}
	cases := []struct {
		name, base, transport string
		pg                    PGAddr
		want                  string // result, or "error: substring"
	}{
		{"localhost to unix", "postgres://authenticator@localhost/app", "unix", pg,
			"postgres://authenticator@/app?host=/run/postgresql&port=5432"},
		{"password and params kept", "postgres://u:p%40ss$w@127.0.0.1:5432/app?sslmode=disable&application_name=pgrst", "unix", pg,
			"postgres://u:p%40ss$w@/app?sslmode=disable&application_name=pgrst&host=/run/postgresql&port=5432"},
		{"ipv6 loopback to unix", "postgresql://u@[::1]:5432/app", "unix", pg,
			"postgresql://u@/app?host=/run/postgresql&port=5432"},
		{"host query param to unix", "postgres://u@/app?host=localhost&hostaddr=127.0.0.1&connect_timeout=5", "unix", pg,
			"postgres://u@/app?connect_timeout=5&host=/run/postgresql&port=5432"},
		{"socket query param to tcp", "postgres://u@/app?host=/run/postgresql", "tcp", pg,
			"postgres://u@127.0.0.1:5432/app"},
		{"encoded socket authority to tcp", "postgresql://u:pw@%2Fvar%2Frun%2Fpostgresql/app?sslmode=prefer", "tcp", pg,
			"postgresql://u:pw@127.0.0.1:5432/app?sslmode=prefer"},
		{"default socket to tcp", "postgres://u@/app", "tcp", pg, "postgres://u@127.0.0.1:5432/app"},
		{"to tcp on ipv6", "postgres://u@/app?host=/tmp&port=5432", "tcp", pg6, "postgres://u@[::1]:5432/app"},
		{"postgrest default uri", "postgresql://", "tcp", pg, "postgresql://127.0.0.1:5432"},
		{"empty uri to tcp", "", "tcp", pg, "postgresql://127.0.0.1:5432"},
		{"kv to unix", "host=localhost port=5432 dbname=app user=authenticator password='se cr\\'et'", "unix", pg,
			"host=/run/postgresql port=5432 dbname=app user=authenticator password='se cr\\'et'"},
		{"kv to tcp, port appended", "host=/run/postgresql dbname=app user=a", "tcp", pg,
			"host=127.0.0.1 dbname=app user=a port=5432"},
		{"kv without host to tcp", "dbname=app user=a", "tcp", pg, "host=127.0.0.1 dbname=app user=a port=5432"},
		{"kv socket dir with space", "host=127.0.0.1 dbname=app", "unix", PGAddr{Port: 5432, SocketDir: "/tmp/my sock"},
			"host='/tmp/my sock' dbname=app port=5432"},
		{"already unix", "postgres://u@/app?host=/run/postgresql", "unix", pg, "postgres://u@/app?host=/run/postgresql"},
		{"already tcp", "postgres://u@localhost:5432/app", "tcp", pg, "postgres://u@localhost:5432/app"},
		{"pg host itself", "postgres://u@10.1.2.3/app", "unix", PGAddr{Host: "10.1.2.3", Port: 5432, SocketDir: "/s"},
			"postgres://u@/app?host=/s&port=5432"},
		// Refused shapes.
		{"remote name to unix", "postgres://u@db.example.com/app", "unix", pg, "error: not this machine"},
		{"remote ip to unix", "postgres://u@10.0.0.5:5432/app", "unix", pg, "error: not this machine"},
		{"remote kv to unix", "host=db.example.com dbname=app", "unix", pg, "error: not this machine"},
		{"remote hostaddr to unix", "host=localhost hostaddr=10.0.0.5 dbname=app", "unix", pg, "error: not this machine"},
		{"bad transport", "postgres://u@localhost/app", "udp", pg, "error: want \"tcp\" or \"unix\""},
		{"several hosts", "postgres://u@h1:5432,h2:5432/app", "unix", pg, "error: several hosts"},
		{"other port", "postgres://u@localhost:5433/app", "unix", pg, "error: port 5433"},
		{"unknown socket dir", "postgres://u@localhost/app", "unix", PGAddr{Port: 5432}, "error: socket directory is unknown"},
		{"at file", "@/etc/postgrest/uri", "tcp", pg, "error: names a file"},
		{"garbage", "not a uri", "tcp", pg, "error: neither"},
		{"unterminated kv quote", "host='abc dbname=x", "tcp", pg, "error: unterminated"},
		{"unterminated ipv6", "postgres://u@[::1/app", "unix", pg, "error: unterminated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DeriveDBURI(c.base, c.transport, c.pg)
			if want, ok := strings.CutPrefix(c.want, "error: "); ok {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("want error containing %q, got %q, %v", want, got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
			if tr, err := Transport(got); err != nil || tr != c.transport {
				t.Fatalf("Transport(%s) = %s, %v", got, tr, err)
			}
		})
	}
}

func TestTransport(t *testing.T) {
	for uri, want := range map[string]string{
		"postgres://u@localhost/db":                 "tcp",
		"postgres://u@/db":                          "unix",
		"postgres://u@/db?host=/tmp":                "unix",
		"postgres://u@/db?hostaddr=127.0.0.1":       "tcp",
		"postgresql://%2Ftmp/db":                    "unix",
		"host=/tmp dbname=x":                        "unix",
		"dbname=x":                                  "unix",
		"host=::1 dbname=x":                         "tcp",
		"postgres://u@[::1]/db?host=%2Frun%2Fpgsql": "unix",
	} {
		if got, err := Transport(uri); err != nil || got != want {
			t.Errorf("Transport(%q) = %q, %v; want %q", uri, got, err, want)
		}
	}
}
