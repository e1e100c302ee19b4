package labtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// PostgREST returns the path of the real PostgREST binary the tests run
// against: $LAB_POSTGREST (.ci/run sets it to ../shared/postgrest/postgrest).
// When it is unset or not runnable the test fails under CI=true and skips
// elsewhere, saying why.
func PostgREST(t testing.TB) string {
	t.Helper()
	p := os.Getenv("LAB_POSTGREST")
	if p == "" {
		Need(t, "real PostgREST: LAB_POSTGREST is not set (point it at a postgrest binary, e.g. ../shared/postgrest/postgrest)")
		return ""
	}
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		Need(t, "real PostgREST: LAB_POSTGREST=%s is not an executable file (%v)", p, err)
		return ""
	}
	if out, err := exec.Command(p, "--version").CombinedOutput(); err != nil {
		Need(t, "real PostgREST: %s --version: %v: %s (missing runtime libraries? see ldd)", p, err, out)
		return ""
	}
	return p
}

// CopyExecutable copies the executable src to dst (making dst's directory)
// with mode 0755 and returns dst: two copies of one build stand for two
// builds in tests that compare binaries.
func CopyExecutable(t testing.TB, src, dst string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}
