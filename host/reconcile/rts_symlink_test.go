package reconcile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// TestAttackRTSStatsSymlink is the attack of issue 27's review, finding 2c: with
// profile = true the root target (real PostgREST) writes its GHC runtime
// statistics (+RTS -S<path>) into logs/, which belonged to the postgres
// user: a link planted there made the root target truncate and rewrite a
// root-only file. Now the directory is root's alone, a left-over link is
// replaced before the target starts, and a directory others may write is
// refused.
func TestAttackRTSStatsSymlink(t *testing.T) {
	if os.Geteuid() != 0 {
		labtest.Need(t, "the attack needs root and the postgres user (uid %d)", os.Geteuid())
	}
	bin := labtest.PostgREST(t)
	l, _ := localOn(t, stack.Options{Supervisor: systemd.ModeDirect, Postgrest: bin})
	l.cfg.Profile = true // Apply adds +RTS -S; perf is only for windows
	stats := l.ghcStatsFile()
	if stats == "" {
		t.Fatal("no GHC statistics file for real PostgREST with profile = true")
	}
	vdir := t.TempDir()
	if err := os.Chmod(vdir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(vdir, "root-only")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	untouched := func(when string) {
		t.Helper()
		if b, err := os.ReadFile(victim); err != nil || string(b) != "precious\n" {
			t.Errorf("%s: the root-only file changed: %.200q %v", when, b, err)
		}
	}
	byPostgres := true
	if err := labtest.AsPostgres(t, "ln", "-sfn", victim, stats); err != nil {
		byPostgres = false
		t.Logf("the postgres user cannot plant %s: %v; planting as root (a link left from before the fix)", stats, err)
		if err := os.Symlink(victim, stats); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Errorf("the postgres user planted %s -> %s", stats, victim)
	}
	ctx := context.Background()
	if _, err := l.Apply(ctx, lab.Variant{Name: "profiled"}); err != nil {
		t.Fatalf("apply with profile = true (link planted by postgres: %v): %v", byPostgres, err)
	}
	untouched("after the profiled apply")
	if fi, err := os.Lstat(stats); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s: %v %v, want a regular file", stats, fi, err)
	} else if b, _ := os.ReadFile(stats); !strings.Contains(string(b), "+RTS") {
		t.Errorf("%s holds no GHC statistics: %q", stats, b)
	}
	if err := l.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	untouched("after the restore")

	// A directory others may write is refused before anything changes.
	dir := filepath.Dir(stats)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := l.Apply(ctx, lab.Variant{Name: "profiled-open-dir"})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err == nil || !strings.Contains(err.Error(), "writable") {
		t.Errorf("apply with profile = true and %s mode 0777: %v, want a refusal", dir, err)
	}
	if err := l.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	untouched("at the end")
}
