package agent

import (
	"strings"
	"testing"
)

// Issue 52, finding 5: the driver sent its bearer token over http:// to
// any host. It now refuses plain HTTP off loopback (the agent does too),
// names the ways around it (TLS, an SSH tunnel to loopback), and sends it
// only when told the network is trusted.
func TestClientRefusesPlaintextOffLoopback(t *testing.T) {
	tok := []byte("0123456789abcdef0123456789abcdef")
	for _, u := range []string{"http://10.0.0.5:7171", "http://db1.example.com:7171", "http://[2001:db8::1]:7171", "http://0.0.0.0:7171"} {
		_, err := NewClient(u, ClientOptions{Token: tok})
		if err == nil || !strings.Contains(err.Error(), "in clear") || !strings.Contains(err.Error(), "ssh -L") {
			t.Errorf("NewClient(%s) = %v, want a refusal naming TLS and an SSH tunnel", u, err)
		}
		if _, err := NewClient(u, ClientOptions{Token: tok, AllowPlaintext: true}); err != nil {
			t.Errorf("NewClient(%s, AllowPlaintext) = %v", u, err)
		}
	}
	for _, u := range []string{"http://127.0.0.1:7171", "http://localhost:7171", "http://[::1]:7171", "http://127.0.1.1:7171", "https://10.0.0.5:7171"} {
		if _, err := NewClient(u, ClientOptions{Token: tok}); err != nil {
			t.Errorf("NewClient(%s) = %v, want allowed (loopback, or TLS)", u, err)
		}
	}
}
