package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentWarnsUnreachableTarget: an advertised address the target does
// not listen on is pointed out at start.
func TestAgentWarnsUnreachableTarget(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "server-host = \"127.0.0.1\"\nserver-port = 3000\n")
	cfg := &Config{}
	cfg.Stack.Dir = dir
	if w := cfg.Unreachable("http://127.0.0.1:3000", "http://10.0.0.5:3000"); !strings.Contains(w, `server-host = "127.0.0.1"`) {
		t.Fatalf("no warning: %q", w)
	}
	if w := cfg.Unreachable("http://127.0.0.1:3000", "http://127.0.0.1:3000"); w != "" {
		t.Fatalf("warning without an advertised address: %q", w)
	}
	write(t, dir, "server-host = \"*4\"\n")
	if w := cfg.Unreachable("http://127.0.0.1:3000", "http://10.0.0.5:3000"); w != "" {
		t.Fatalf("warning for *4: %q", w)
	}
}

func write(t *testing.T, dir, conf string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "postgrest.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
}
