package loadgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTargets(t *testing.T) {
	reqs, err := ReadTargets("testdata/targets/mix.http")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ method, path, prefer, body string }{
		{"GET", "/", "tx=commit", ""},
		{"HEAD", "/artist?artist_id=eq.1", "tx=commit", ""},
		{"POST", "/employee?columns=employee_id,last_name,first_name", "tx=rollback", `"employee_id":900`},
		{"PATCH", "/employee?employee_id=eq.1", "tx=rollback", `"Rolled back"`},
		{"DELETE", "/employee?employee_id=eq.8", "tx=rollback", ""},
		{"GET", "/rpc/add_them?a=1&b=2&c=3&d=4&e=5", "", ""},
		{"GET", "/artixt?artist_id=eq.1", "tx=commit", ""},
	}
	if len(reqs) != len(want) {
		t.Fatalf("%d targets, want %d: %+v", len(reqs), len(want), reqs)
	}
	for i, w := range want {
		r := reqs[i]
		if r.Method != w.method || r.Path != w.path || r.Header["Prefer"] != w.prefer || !strings.Contains(string(r.Body), w.body) ||
			(w.body == "") != (len(r.Body) == 0) || r.Expect != ExpectNoServerError {
			t.Errorf("target %d: %s %s %v body %q expect %d, want %+v", i, r.Method, r.Path, r.Header, r.Body, r.Expect, w)
		}
		if _, err := compile(r, "h", ""); err != nil {
			t.Errorf("target %d does not compile: %v", i, err)
		}
	}
	if reqs[3].Header["Content-Type"] != "application/json" {
		t.Errorf("PATCH headers %v", reqs[3].Header)
	}
}

func TestReadTargetsRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	inner := filepath.Join(dir, "in")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.json"), []byte(`{"x":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret.json"), filepath.Join(inner, "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, want string }{
		{"GET http://example.com/artist\n", `t.http:1: URL: the host is not loopback`},
		{"GET http://10.0.0.1:3000/artist\n", `t.http:1: URL: the host is not loopback`},
		{"\n\nGET https://localhost/a\n", "t.http:3: URL: want http://HOST/PATH"},
		{"FETCH http://localhost/a\n", `t.http:1: unknown method: allowed are GET`},
		{"GET http://localhost/a extra\n", `t.http:1: want "METHOD URL"`},
		{"GET http://localhost/a\nnot a header\n", `t.http:2: want a header`},
		{"POST http://localhost/a\n@../secret.json\n", "t.http:2: body file: must be a path inside"},
		{"POST http://localhost/a\n@/etc/passwd\n", "t.http:2: body file: must be a path inside"},
		{"POST http://localhost/a\n@link.json\n", "t.http:2: body file: leads outside"},
		{"POST http://localhost/a\n@missing.json\n", "t.http:2: body file: cannot be read"},
		{"POST http://localhost/a\nA: 1\nA: 2\n", `t.http:3: a header given twice`},
		{"# only a comment\n", "t.http:1: no targets"},
		{"GET http://localhost/a\n" + strings.Repeat("x", maxTargetLine+1) + "\n", "lines are at most"},
	} {
		path := filepath.Join(inner, "t.http")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadTargets(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	big := filepath.Join(inner, "big.http")
	if err := os.WriteFile(big, make([]byte, MaxTargetsFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTargets(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized file: %v", err)
	}
}

func TestReadTargetsChecksTemplates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.http")
	src := "GET http://localhost/a\nAuthorization: Bearer {jwt role=web_user exp=+1h}\n\nGET http://localhost/b\nAuthorization: Bearer {jwt role=x pool=0}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTargets(path); err == nil || !strings.Contains(err.Error(), "t.http:4: a header: {jwt}: pool=N: want 1..100000") {
		t.Errorf("error %v", err)
	}
}
