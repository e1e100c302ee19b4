package configs

import "testing"

func TestWithParam(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://authenticator@127.0.0.1:5432/chinook", "postgres://authenticator@127.0.0.1:5432/chinook?application_name=lab-a"},
		{"postgres://u:p%3Fw@/chinook?host=/tmp/s&port=5&application_name=old", "postgres://u:p%3Fw@/chinook?host=/tmp/s&port=5&application_name=lab-a"},
		{"postgresql://u@h/db?sslmode=disable", "postgresql://u@h/db?sslmode=disable&application_name=lab-a"},
		{"host=/tmp/s port=5 dbname=chinook application_name=x", "host=/tmp/s port=5 dbname=chinook application_name=lab-a"},
		{"host=h password='a b'", "host=h password='a b' application_name=lab-a"},
	} {
		got, err := WithParam(c.in, "application_name", "lab-a")
		if err != nil || got != c.want {
			t.Errorf("WithParam(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if tr, _ := Transport(got); tr != mustTransport(t, c.in) {
			t.Errorf("WithParam(%q) changed the transport to %s", c.in, tr)
		}
	}
	if _, err := WithParam("postgres://h/db", "port", "1"); err == nil {
		t.Error("WithParam(port) succeeded; want an error")
	}
	if _, err := WithParam("@/etc/secret", "application_name", "a"); err == nil {
		t.Error("WithParam(@file) succeeded; want an error")
	}
}

func mustTransport(t *testing.T, uri string) string {
	t.Helper()
	tr, err := Transport(uri)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
