package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lab validate reads an experiment's targets file and checks its
// templates: a bad line is reported at the targets file's line, a {jwt}
// template without jwt_secret names the key to set; lab run --targets
// checks the file before anything starts.
func TestTargetsFileChecked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exp := write("x.toml", "name = \"x\"\ntitle = \"x\"\nscenarios = []\ntargets = \"t.http\"\n\n[[variant]]\nname = \"a\"\n")
	for _, c := range []struct{ targets, want string }{
		{"GET http://localhost/artist\n\nGET http://db.example.com/artist\n", "t.http:3: URL: the host is not loopback"},
		{"GET http://localhost/artist\nAuthorization: Bearer {jwt role=web_anon}\n", "t.http: target 1: {jwt}: no JWT secret to sign with (set jwt_secret in the experiment)"},
		{"POST http://localhost/employee\n@../x.toml\n", "t.http:2: body file: must be a path inside the targets file's directory"},
	} {
		write("t.http", c.targets)
		var out, errb bytes.Buffer
		err := run(context.Background(), []string{"validate", exp}, &out, &errb)
		if err == nil || !strings.Contains(out.String(), c.want) {
			t.Errorf("validate: %v\n%s\nwant %q", err, out.String(), c.want)
		}
	}
	write("t.http", "GET http://localhost/artist\nPrefer: tx=commit\n\nDELETE http://localhost/employee?employee_id=eq.8\nPrefer: tx=rollback\n")
	var out, errb bytes.Buffer
	want := `t.http: target 2 asks for Prefer: tx=rollback, but variant(s) a do not set db-tx-end = "commit-allow-override"`
	if err := run(context.Background(), []string{"validate", exp}, &out, &errb); err == nil || !strings.Contains(out.String(), want) {
		t.Errorf("tx=rollback without db-tx-end: %v\n%s", err, out.String())
	}
	write("x.toml", "name = \"x\"\ntitle = \"x\"\nscenarios = []\ntargets = \"t.http\"\n\n[[variant]]\nname = \"a\"\npostgrest = { db-tx-end = \"commit-allow-override\" }\n")
	out.Reset()
	if err := run(context.Background(), []string{"validate", exp}, &out, &errb); err != nil || !strings.Contains(out.String(), "x.toml: OK (1 variant x 1 scenario") {
		t.Errorf("good targets: %v\n%s", err, out.String())
	}
	bad := write("bad.http", "GET ftp://localhost/x\n")
	err := run(context.Background(), []string{"run", "log-level", "--targets", bad, "--dir", filepath.Join(dir, "none")}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "bad.http:1: URL: want http://HOST/PATH") {
		t.Errorf("run --targets with a bad file: %v", err)
	}
}
