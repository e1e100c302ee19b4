package trial

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// Finding 8 (round 3), the trial side: a scenario's body_file is read, at
// validation (CheckRequests) and when a trial starts, as a bounded regular
// file: a FIFO does not block, a file over the bound is refused, and its
// templates are checked like an inline body's.
func TestAttackExperimentFileTrial(t *testing.T) {
	t.Run("r3-8-body-file-bounded", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("[]")) }))
		defer srv.Close()
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo.json")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		big := filepath.Join(dir, "big.json")
		if err := os.WriteFile(big, make([]byte, 17<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(bad, []byte(`{"id": {rand 0 9223372036854775807}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ file, want string }{{fifo, "regular file"}, {big, "larger than"}, {bad, "rand"}} {
			sc := lab.Scenario{Name: "custom", Method: "POST", Path: "/a", BodyFile: c.file, Weight: 1}
			e := &lab.Experiment{Custom: []lab.Scenario{sc}}
			if err := within(t, func() error { return CheckRequests(e) }); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("CheckRequests, body_file %s: want %q, got %v", filepath.Base(c.file), c.want, err)
			}
			l := &Loader{Target: loadgen.Target{URL: srv.URL}}
			spec := lab.LoadSpec{Scenario: "custom", Custom: &sc, Seed: 1, Load: lab.Load{Model: lab.ModelClosed, Connections: 1,
				Duration: 100 * time.Millisecond, Timeout: time.Second}}
			if err := within(t, func() error { _, err := l.Load(context.Background(), spec); return err }); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load, body_file %s: want %q, got %v", filepath.Base(c.file), c.want, err)
			}
		}
	})
}

// within runs f, failing the test when it does not return in 10 s.
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("did not return within 10s")
		return nil
	}
}
