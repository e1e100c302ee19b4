package labtest

import (
	"os"
	"testing"
)

// PostgREST returns the path of the real PostgREST binary, $LAB_POSTGREST
// (e.g. /work/shared/postgrest/postgrest). Without it the test fails in CI
// and is skipped elsewhere (Need).
func PostgREST(t testing.TB) string {
	t.Helper()
	p := os.Getenv("LAB_POSTGREST")
	if p == "" {
		Need(t, "LAB_POSTGREST is not set (the path of a real PostgREST binary)")
		return ""
	}
	if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		Need(t, "LAB_POSTGREST=%s is not an executable file (%v)", p, err)
		return ""
	}
	return p
}
