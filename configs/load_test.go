package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadImportsInterpolationEnv(t *testing.T) {
	s, err := Load("testdata/golden/with-import.conf", []string{"PORT=3456", "PATH=/bin"})
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		"db-uri":       "postgres://authenticator@localhost/app",
		"db-pool":      "20",
		"db-anon-role": "anon",
		"log-level":    "warn",
		"server-port":  "3456",
	}
	for k, v := range want {
		if s[k] != v {
			t.Errorf("%s = %q, want %q", k, s[k], v)
		}
	}
	if n, err := s.Int("server-port", 3000); err != nil || n != 3456 {
		t.Errorf("Int(server-port) = %d, %v", n, err)
	}
	// PGRST_* overrides the file, for known keys and app.settings.
	s, err = Load("testdata/golden/with-import.conf", []string{"PORT=1", "PGRST_DB_POOL=3", "PGRST_APP_SETTINGS_jwt_exp=60", "PGRST_NOT_A_KEY=x"})
	if err != nil {
		t.Fatal(err)
	}
	if s["db-pool"] != "3" || s["app.settings.jwt_exp"] != "60" {
		t.Errorf("env overrides not applied: %v", s)
	}
	if _, ok := s["not-a-key"]; ok {
		t.Error("unknown PGRST_ variable became a key")
	}
}

func TestLoadMissingVariable(t *testing.T) {
	_, err := Load("testdata/golden/with-import.conf", nil)
	if err == nil || !strings.Contains(err.Error(), "PORT") || !strings.Contains(err.Error(), "with-import.conf:4:15:") {
		t.Fatalf("want an error naming PORT at with-import.conf:4:15, got %v", err)
	}
}

func TestLoadGroupsKeyInterpolationAndAtFile(t *testing.T) {
	dir := t.TempDir()
	uriFile := filepath.Join(dir, "uri")
	secretFile := filepath.Join(dir, "secret")
	os.WriteFile(uriFile, []byte("  postgres://a@/db?host=/tmp \n"), 0o600)
	os.WriteFile(secretFile, []byte("s3cr3t-with-at-least-32-characters!!\n\n"), 0o600)
	cfg := filepath.Join(dir, "pgrst.conf")
	os.WriteFile(cfg, []byte(`user = "app"
port = 5432
app { settings { x = "$(user):$(port):$(HOME)" } }
db-uri = "@`+uriFile+`"
jwt-secret = "@`+secretFile+`"
db-prepared-statements = off
`), 0o600)
	s, err := Load(cfg, []string{"HOME=/root"})
	if err != nil {
		t.Fatal(err)
	}
	if s["app.settings.x"] != "app:5432:/root" {
		t.Errorf("app.settings.x = %q", s["app.settings.x"])
	}
	if s["db-uri"] != "postgres://a@/db?host=/tmp" {
		t.Errorf("db-uri = %q", s["db-uri"])
	}
	if s["jwt-secret"] != "s3cr3t-with-at-least-32-characters!!\n" {
		t.Errorf("jwt-secret = %q", s["jwt-secret"])
	}
	if b, err := s.Bool("db-prepared-statements", true); err != nil || b {
		t.Errorf("Bool = %v, %v", b, err)
	}
	// An import cycle is an error, not a hang.
	os.WriteFile(filepath.Join(dir, "a.conf"), []byte(`import "b.conf"`), 0o600)
	os.WriteFile(filepath.Join(dir, "b.conf"), []byte(`import "a.conf"`), 0o600)
	if _, err := Load(filepath.Join(dir, "a.conf"), nil); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("import cycle: %v", err)
	}
}

func TestSettingsGetters(t *testing.T) {
	s := Settings{"db-pool": "x", "db-pool-timeout": "15", "db-schemas": "", "db-schema": "api, v1", "server-timing-enabled": "TRUE"}
	if _, err := s.Int("db-pool", 10); err == nil || !strings.Contains(err.Error(), "db-pool") {
		t.Errorf("Int(db-pool) error = %v", err)
	}
	if n, _ := s.Int("db-pool-max-idletime", 30); n != 15 {
		t.Errorf("alias: %d", n)
	}
	if n, _ := s.Int("db-max-rows", -1); n != -1 {
		t.Errorf("default: %d", n)
	}
	if got := s.List("db-schemas", nil); strings.Join(got, "|") != "api|v1" {
		t.Errorf("List = %q", got)
	}
	if b, err := s.Bool("server-timing-enabled", false); !b || err != nil {
		t.Errorf("Bool = %v %v", b, err)
	}
	if s.String("log-level", "error") != "error" {
		t.Error("String default")
	}
}

func TestLoadEnvOnly(t *testing.T) {
	s, err := Load("", []string{"PGRST_DB_URI=postgres://x@/y", "PGRST_LOG_LEVEL=crit"})
	if err != nil {
		t.Fatal(err)
	}
	if s["db-uri"] != "postgres://x@/y" || s["log-level"] != "crit" || len(s) != 2 {
		t.Errorf("%v", s)
	}
}
