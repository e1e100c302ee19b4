package loadgen

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The loadgen side of finding 8 (round 3): what a hostile experiment file
// hands the generator (targets files, their bodies, templates) is refused
// with an error that quotes nothing of the files read, never blocks on a
// FIFO and never panics: a panic in a load goroutine comes back as Run's
// error.
func TestAttackExperimentFileLoadgen(t *testing.T) {
	const secret = "TOPSECRET-8f1d2c"
	t.Run("r3-8-targets-outside-dir", func(t *testing.T) {
		// A targets file that is not one (a secret, a key, a config): every
		// kind of parse error names file:line and what was expected, never
		// the line.
		dir := t.TempDir()
		for _, src := range []string{
			secret + "\n",
			"GET http://localhost/a\n" + secret + "\n",
			"GET http://localhost/a\n" + secret + ": x\n" + secret + ": y\n",
			secret + " http://localhost/a\n",
			"GET http://" + secret + ".example/a\n",
			"GET https://" + secret + "/a\n",
			"GET http://localhost/{rand " + secret + " 1}\n",
			"GET http://localhost/a\nX: {jwt " + secret + "}\n",
			"GET http://localhost/a\nHost: " + secret + "\n",
			"POST http://localhost/a\n@" + secret + "\n",
			"POST http://localhost/a\n@../" + secret + "\n",
		} {
			p := filepath.Join(dir, "t.http")
			if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTargets(p)
			if err == nil {
				t.Errorf("%q: accepted", src)
				continue
			}
			if strings.Contains(err.Error(), "TOPSECRET") || !strings.Contains(err.Error(), "t.http:") {
				t.Errorf("%q: want file:line without the file's content, got: %v", src, err)
			}
		}
	})

	t.Run("r3-8-template-bounds", func(t *testing.T) {
		for _, path := range []string{
			"/a?id={rand 0 9223372036854775807}",
			"/a?id={rand -9223372036854775808 9223372036854775807}",
			"/a?id={rand 5 1}",
			"/a?id={seq 9223372036854775807}",
			"/a?id={seq -9223372036854775808}",
		} {
			r := Request{Path: path}
			if err := CheckRequest(r, "", nil); err == nil {
				t.Errorf("%s: accepted", path)
			}
			// Given to Run directly (no lab validation before): an error,
			// not a panic in a worker.
			s := startServer(t, okHandler)
			cfg := Config{Target: Target{URL: s.URL}, Mix: []Weighted{{Scenario: Scenario{Name: "x", Requests: []Request{r}}, Weight: 1}},
				Closed: &Closed{Connections: 2}, Duration: 200 * time.Millisecond}
			if _, err := Run(context.Background(), cfg, nil); err == nil {
				t.Errorf("%s: Run accepted it", path)
			}
		}
		// A sound full-range-minus-one template renders without panicking.
		tm, err := compile(Request{Path: "/a?id={rand -9223372036854775806 0}&s={rand 9223372036854775806 9223372036854775807}"}, "h", "")
		if err != nil {
			t.Fatal(err)
		}
		tm.render(nil, nil, rand.New(rand.NewPCG(1, 2)))
		// {jwt pool=N} bounds the tokens of all the fields together.
		h := strings.Repeat("{jwt role=a pool=100000} ", 3)
		if err := CheckRequest(Request{Path: "/a", Header: map[string]string{"Authorization": h}}, strings.Repeat("s", 32), nil); err == nil ||
			!strings.Contains(err.Error(), "tokens") {
			t.Errorf("3 x pool=100000: %v", err)
		}
	})

	t.Run("r3-8-no-panic-restores", func(t *testing.T) {
		s := startServer(t, okHandler)
		base := Config{Target: Target{URL: s.URL}, Mix: simpleMix("/a"), Duration: 300 * time.Millisecond}
		for _, c := range []struct {
			name string
			cfg  func() Config
			prog func(Progress)
		}{
			{"progress-panics-closed", func() Config {
				c := base
				c.Closed = &Closed{Connections: 2}
				c.Duration = 1500 * time.Millisecond
				return c
			},
				func(Progress) { panic("injected progress panic") }},
			{"progress-panics-open", func() Config { c := base; c.Open = &Open{Rate: 200}; c.Duration = 1500 * time.Millisecond; return c },
				func(Progress) { panic("injected progress panic") }},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := Run(context.Background(), c.cfg(), c.prog)
				var pe interface{ PanicStack() []byte }
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "internal error") || len(pe.PanicStack()) == 0 {
					t.Fatalf("want an internal error with a stack, got %v", err)
				}
				if strings.Contains(err.Error(), "runtime/debug.Stack") || regexp.MustCompile(`goroutine [0-9]+ \[`).MatchString(err.Error()) {
					t.Fatalf("the error text holds the stack trace: %v", err)
				}
			})
		}
		// A worker whose template panics while rendering (a {jwt} field
		// that was never bound): both models.
		for _, closed := range []bool{true, false} {
			cfg := base
			if closed {
				cfg.Closed = &Closed{Connections: 3}
			} else {
				cfg.Open = &Open{Rate: 500}
			}
			r, err := newRun(cfg)
			if err != nil {
				t.Fatal(err)
			}
			tm := r.mix.scens[0][0]
			tm.static = nil
			tm.head = append(tm.head, seg{kind: 'j'}) // nil jwt: render dereferences nil
			done := make(chan error, 1)
			go func() { _, err := r.run(context.Background(), nil); done <- err }()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("closed=%v: run did not return after its workers panicked", closed)
			}
			var pe interface{ PanicStack() []byte }
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "internal error") {
				t.Fatalf("closed=%v: want an internal error, got %v", closed, err)
			}
		}
	})

	t.Run("r3-8-body-file-bounded", func(t *testing.T) {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{"POST http://localhost/a\n@fifo\n", "POST http://localhost/a\n@zero\n"} {
			p := filepath.Join(dir, "t.http")
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			// /dev/zero behind a link is outside the directory as well.
			if _, err := readTargetsWithin(t, p); err == nil || !strings.Contains(err.Error(), "regular file") && !strings.Contains(err.Error(), "leads outside") {
				t.Errorf("%q: %v", src, err)
			}
		}
		// The targets file itself: a FIFO, and /dev/zero behind a link
		// (ReadTargets follows no link).
		for f, want := range map[string]string{"fifo": "regular file", "zero": "symbolic link"} {
			if _, err := readTargetsWithin(t, filepath.Join(dir, f)); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("targets %s: want %q, got %v", f, want, err)
			}
		}
	})
}

// readTargetsWithin is ReadTargets failing the test when it blocks.
func readTargetsWithin(t *testing.T, path string) ([]Request, error) {
	t.Helper()
	type res struct {
		r   []Request
		err error
	}
	done := make(chan res, 1)
	go func() { r, err := ReadTargets(path); done <- res{r, err} }()
	select {
	case r := <-done:
		return r.r, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("ReadTargets %s blocked", path)
		return nil, nil
	}
}
