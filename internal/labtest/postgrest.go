package labtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// PostgREST returns the path of the real PostgREST binary the tests run
// against: the first of $LAB_POSTGREST, a list of binaries separated like
// PATH (.ci/run sets it to ../shared/postgrest/postgrest-14.17 and then
// ../shared/postgrest/postgrest, 13.0.8). When it is unset or the binary
// is not runnable the test fails under CI=true and skips elsewhere,
// saying why.
func PostgREST(t testing.TB) string {
	t.Helper()
	all := PostgRESTs(t)
	if len(all) == 0 {
		return ""
	}
	return all[0].Path
}

// Real is one real PostgREST binary of $LAB_POSTGREST.
type Real struct {
	Path    string
	Version string // from --version: "14.17"
}

// PostgRESTs returns every binary of $LAB_POSTGREST, checked as
// PostgREST checks the first (nil after Need when one is missing).
func PostgRESTs(t testing.TB) []Real {
	t.Helper()
	list := os.Getenv("LAB_POSTGREST")
	if list == "" {
		Need(t, "real PostgREST: LAB_POSTGREST is not set (point it at a postgrest binary, or several separated by %q, e.g. ../shared/postgrest/postgrest-14.17)", string(os.PathListSeparator))
		return nil
	}
	var out []Real
	for _, p := range filepath.SplitList(list) {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			Need(t, "real PostgREST: %s (in LAB_POSTGREST) is not an executable file (%v)", p, err)
			return nil
		}
		version, err := versionOf(p)
		if err != nil {
			Need(t, "real PostgREST: %v (missing runtime libraries? see ldd)", err)
			return nil
		}
		out = append(out, Real{Path: p, Version: version})
	}
	return out
}

// EachPostgREST runs f as a subtest per binary of $LAB_POSTGREST, named
// by its version ("PostgREST_14.17"): the cases whose answer may differ
// between PostgREST's versions run on each.
func EachPostgREST(t *testing.T, f func(t *testing.T, bin Real)) {
	t.Helper()
	for _, b := range PostgRESTs(t) {
		t.Run("PostgREST_"+b.Version, func(t *testing.T) { f(t, b) })
	}
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

// RealList lists $LAB_POSTGREST's binaries for tables of test targets,
// each named by the version it prints ("postgrest-14.17"), without
// failing: Binary(t) fails or skips as PostgREST does when the list is
// unset or a binary cannot run. With the list unset it has one entry.
func RealList() []RealEntry {
	paths := filepath.SplitList(os.Getenv("LAB_POSTGREST"))
	if len(paths) == 0 {
		return []RealEntry{{Name: "postgrest"}}
	}
	var out []RealEntry
	for _, p := range paths {
		name := "postgrest"
		if v, err := versionOf(p); err == nil && v != "" {
			name += "-" + v
		}
		out = append(out, RealEntry{Name: name, path: p})
	}
	return out
}

// RealEntry is one binary of RealList.
type RealEntry struct {
	Name string
	path string
}

// Binary is the entry's path, checked (see PostgREST).
func (e RealEntry) Binary(t testing.TB) string {
	t.Helper()
	for _, r := range PostgRESTs(t) {
		if r.Path == e.path {
			return r.Path
		}
	}
	if e.path == "" {
		return PostgREST(t)
	}
	Need(t, "real PostgREST: %s is not in LAB_POSTGREST any more", e.path)
	return ""
}

// versionOf runs `bin --version` and returns the version it prints
// ("14.17" from "PostgREST 14.17").
func versionOf(bin string) (string, error) {
	v, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v: %s", bin, err, v)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(v)), "\n")
	if f := strings.Fields(strings.TrimPrefix(line, "PostgREST ")); len(f) > 0 {
		return f[0], nil
	}
	return "", nil
}
