package labtest

import (
	"os"
	"testing"
)

// InCI reports whether the tests run in CI (CI=true), where a missing part
// is a failure, not a reason to skip.
func InCI() bool { return os.Getenv("CI") == "true" }

// Need fails the test in CI and skips it elsewhere, with the reason.
func Need(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI=true and a required part is missing: "+format, args...)
	}
	t.Skipf("skipped (set CI=true to make this a failure): "+format, args...)
}
