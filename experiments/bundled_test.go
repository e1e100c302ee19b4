package experiments

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every bundled experiment must load and validate, and be named after its file.
func TestBundledExperimentsValidate(t *testing.T) {
	names := Names()
	if !slices.Contains(names, "socket-vs-tcp") {
		t.Fatalf("Names() = %v: socket-vs-tcp missing", names)
	}
	for _, n := range names {
		e, err := Load(n)
		if err != nil {
			t.Errorf("%s:\n%v", n, err)
			continue
		}
		if e.Name != n {
			t.Errorf("%s: name = %q, want the file's name", n, e.Name)
		}
		if e.Title == "" || e.Description == "" {
			t.Errorf("%s: title and description are required for bundled experiments", n)
		}
		if e.Source != "" {
			t.Errorf("%s: Source = %q, want \"\" for a bundled experiment", n, e.Source)
		}
	}
}

// The bundled jwt experiment's jwt_private_key is written out with it and
// resolved to a PEM file the run can read; its variants' JWKS holds the
// public half (the RS256 scenarios' expect = 200 on real PostgREST is
// cmd/lab's TestJWTExperimentRuns).
func TestBundledJWTPrivateKey(t *testing.T) {
	e, err := Load("jwt")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(e.JWTPrivateKey) || filepath.Base(e.JWTPrivateKey) != "rs256.pem" {
		t.Fatalf("jwt_private_key resolved to %q", e.JWTPrivateKey)
	}
	b, err := os.ReadFile(e.JWTPrivateKey)
	if err != nil || !strings.HasPrefix(string(b), "-----BEGIN PRIVATE KEY-----") {
		t.Fatalf("%s: %v %.30q", e.JWTPrivateKey, err, b)
	}
	if _, err := bundledFile("jwt/rs256.http", "jwt_private_key", ".pem"); err == nil {
		t.Error("a bundled key file not ending in .pem was accepted")
	}
}
