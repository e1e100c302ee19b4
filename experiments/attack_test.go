package experiments_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
)

// The attack cases of finding 8 (round 3): a hostile experiment file must
// not make `lab validate` or `lab run` read files outside its directory,
// quote their content, hang, allocate without bound or panic. Each case
// runs what `lab validate FILE` runs: experiments.LoadWith, then
// trial.CheckRequests.

// secret is the content of a root-only file next to the experiment's
// directory: no error may show it.
const secret = "TOPSECRET-8f1d2c line of a root-only file"

// validate is `lab validate FILE`'s check of one file.
func validate(path string) error {
	e, err := experiments.LoadWith(path, nil)
	if err == nil {
		err = trial.CheckRequests(e)
	}
	return err
}

// validateWithin runs validate, failing the test when it does not return
// within limit (a FIFO or /dev/zero once blocked or grew without bound).
func validateWithin(t *testing.T, path string, limit time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- validate(path) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("validate %s did not return within %v", path, limit)
		return nil
	}
}

// attackDir makes base/secret.txt (0600) and base/exp/, and returns both.
func attackDir(t *testing.T) (secretFile, dir string) {
	t.Helper()
	base := t.TempDir()
	secretFile = filepath.Join(base, "secret.txt")
	if err := os.WriteFile(secretFile, []byte(secret+"\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(base, "exp")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return secretFile, dir
}

// writeExperiment writes an experiment file with extra TOML lines (after
// the scenarios line, before the variants) and returns its path.
func writeExperiment(t *testing.T, dir, top, custom string) string {
	t.Helper()
	src := `name = "attack"
title = "t"
scenarios = ["GETSingle"` + map[bool]string{true: `, "custom"`, false: ""}[custom != ""] + `]
` + top + `
` + custom + `
[[variant]]
name = "a"
[[variant]]
name = "b"
`
	p := filepath.Join(dir, "x.toml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAttackExperimentFile(t *testing.T) {
	t.Run("r3-8-targets-outside-dir", func(t *testing.T) {
		secretFile, dir := attackDir(t)
		if err := os.Symlink(secretFile, filepath.Join(dir, "link.http")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secretFile, filepath.Join(dir, "body.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secretFile, filepath.Join(dir, "key.pem")); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ name, top, custom string }{
			{"dotdot", `targets = "../secret.txt"`, ""},
			{"absolute", fmt.Sprintf("targets = %q", secretFile), ""},
			{"symlink", `targets = "link.http"`, ""},
			{"body-dotdot", "", "[[scenario]]\nname = \"custom\"\nmethod = \"POST\"\npath = \"/artist\"\nbody_file = \"../secret.txt\"\n"},
			{"body-absolute", "", fmt.Sprintf("[[scenario]]\nname = \"custom\"\nmethod = \"POST\"\npath = \"/artist\"\nbody_file = %q\n", secretFile)},
			{"body-symlink", "", "[[scenario]]\nname = \"custom\"\nmethod = \"POST\"\npath = \"/artist\"\nbody_file = \"body.json\"\n"},
			{"key-dotdot", `jwt_private_key = "../secret.txt"`, ""},
			{"key-absolute", fmt.Sprintf("jwt_private_key = %q", secretFile), ""},
			{"key-symlink", `jwt_private_key = "key.pem"`, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				p := writeExperiment(t, dir, c.top, c.custom)
				err := validateWithin(t, p, 10*time.Second)
				if err == nil {
					t.Fatalf("accepted an experiment reading %s", secretFile)
				}
				msg := err.Error()
				if strings.Contains(msg, "TOPSECRET") || strings.Contains(msg, "second line") {
					t.Fatalf("the error quotes the secret file:\n%s", msg)
				}
				if !strings.Contains(msg, "x.toml:") || !strings.Contains(msg, "inside the experiment file's directory") {
					t.Fatalf("want an error at x.toml:LINE saying the file must be inside the experiment file's directory, got:\n%s", msg)
				}
			})
		}
	})

	t.Run("r3-8-template-bounds", func(t *testing.T) {
		_, dir := attackDir(t)
		for _, tmpl := range []string{
			"{rand 0 9223372036854775807}",
			"{rand -9223372036854775808 9223372036854775807}",
			"{rand -5 9223372036854775806}",
			"{rand 5 1}",
			"{seq 9223372036854775807}",
			"{seq -9223372036854775808}",
		} {
			t.Run(tmpl, func(t *testing.T) {
				custom := fmt.Sprintf("[[scenario]]\nname = \"custom\"\npath = \"/artist?id=eq.%s\"\n", tmpl)
				p := writeExperiment(t, dir, "", custom)
				err := validate(p)
				if err == nil {
					t.Fatalf("accepted path template %s", tmpl)
				}
				if !strings.Contains(err.Error(), "x.toml:") || !strings.Contains(err.Error(), "scenario[0].path") {
					t.Fatalf("want an error at x.toml:LINE: scenario[0].path, got:\n%v", err)
				}
			})
		}
		// The same in a header and a body; a sound one still passes.
		p := writeExperiment(t, dir, "", "[[scenario]]\nname = \"custom\"\npath = \"/a\"\nheader = { X-N = \"{rand 0 9223372036854775807}\" }\n")
		if err := validate(p); err == nil || !strings.Contains(err.Error(), "header") {
			t.Fatalf("header template: %v", err)
		}
		p = writeExperiment(t, dir, "", "[[scenario]]\nname = \"custom\"\nmethod = \"POST\"\npath = \"/a\"\nbody = '{\"id\": {rand 3 2}}'\n")
		if err := validate(p); err == nil || !strings.Contains(err.Error(), "body") {
			t.Fatalf("body template: %v", err)
		}
		p = writeExperiment(t, dir, "", "[[scenario]]\nname = \"custom\"\npath = \"/a?id=eq.{rand -9223372036854775806 0}&n={seq 4611686018427387904}\"\n")
		if err := validate(p); err != nil {
			t.Fatalf("sound templates refused: %v", err)
		}
	})

	t.Run("r3-8-body-file-bounded", func(t *testing.T) {
		_, dir := attackDir(t)
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
			t.Fatal(err)
		}
		big := make([]byte, 17<<20)
		if err := os.WriteFile(filepath.Join(dir, "big.json"), big, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "big.http"), big, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo.http"), 0o644); err != nil {
			t.Fatal(err)
		}
		body := func(f string) string {
			return fmt.Sprintf("[[scenario]]\nname = \"custom\"\nmethod = \"POST\"\npath = \"/artist\"\nbody_file = %q\n", f)
		}
		cases := []struct{ name, top, custom, want string }{
			{"dev-zero-symlink", "", body("zero.json"), "leads out of the experiment file's directory"},
			{"fifo", "", body("fifo.json"), "regular file"},
			{"too-large", "", body("big.json"), "larger than"},
			{"targets-fifo", `targets = "fifo.http"`, "", "regular file"},
			{"targets-too-large", `targets = "big.http"`, "", "larger than"},
		}
		// /dev/zero's own device node inside the directory (root only).
		if err := syscall.Mknod(filepath.Join(dir, "zero-node.json"), syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 5))); err == nil {
			cases = append(cases, struct{ name, top, custom, want string }{"dev-zero-node", "", body("zero-node.json"), "regular file"})
		} else if os.Geteuid() == 0 {
			t.Fatalf("mknod: %v", err)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := writeExperiment(t, dir, c.top, c.custom)
				err := validateWithin(t, p, 10*time.Second)
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.toml:") {
					t.Fatalf("want an error at x.toml:LINE saying %q, got: %v", c.want, err)
				}
			})
		}
		// The experiment file itself: a FIFO or /dev/zero named on the
		// command line.
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo.toml"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.toml")); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"fifo.toml", "zero.toml"} {
			if err := validateWithin(t, filepath.Join(dir, f), 10*time.Second); err == nil || !strings.Contains(err.Error(), "regular file") {
				t.Fatalf("%s: want a refusal (not a regular file), got: %v", f, err)
			}
		}
	})

	t.Run("r3-8-numbers-bounded", func(t *testing.T) {
		_, dir := attackDir(t)
		for _, c := range []struct{ top, key string }{
			{"[load]\nmodel = \"open\"\nrate = 1e300", "load.rate"},
			{"[load]\nmodel = \"open\"\nrate = nan", "load.rate"},
			{"[load]\nmodel = \"open\"\nrate = inf", "load.rate"},
			{"[load]\nmodel = \"open\"\nrate = 100.0\nmax_in_flight = 100000000", "load.max_in_flight"},
			{"[load]\nconnections = 100000000", "load.connections"},
			{"[load]\nthreads = 100000", "load.threads"},
			{"[load]\nduration = \"2000000h\"", "load.duration"},
			{"[load]\nwarmup = \"2000000h\"", "load.warmup"},
			{"[load]\ntimeout = \"2000000h\"", "load.timeout"},
			{"[load]\nthink = \"2000000h\"", "load.think"},
			{"[load]\nmodel = \"search\"\n[load.limit]\np99 = \"50ms\"\nmin_rate = nan", "load.limit.min_rate"},
			{"[load]\nmodel = \"search\"\n[load.limit]\np99 = \"50ms\"\nmax_rate = inf", "load.limit.max_rate"},
			{"[load]\nmodel = \"efficiency\"\nutilisation = nan", "load.utilisation"},
			{"[trials]\nmax = 1000000000", "trials.max"},
			{"[trials]\nmin = 1000000000", "trials.min"},
			{"[trials]\nalpha = nan", "trials.alpha"},
			{"[trials]\ninterference = nan", "trials.interference"},
		} {
			t.Run(c.key, func(t *testing.T) {
				p := writeExperiment(t, dir, c.top, "")
				err := validate(p)
				if err == nil || !strings.Contains(err.Error(), "x.toml:") || !strings.Contains(err.Error(), c.key+":") {
					t.Fatalf("%s: want an error at x.toml:LINE: %s, got: %v", c.top, c.key, err)
				}
			})
		}
		for _, w := range []string{"nan", "inf", "1e300", "-1.0"} {
			custom := fmt.Sprintf("[[scenario]]\nname = \"custom\"\npath = \"/a\"\nweight = %s\n", w)
			p := writeExperiment(t, dir, "", custom)
			if err := validate(p); err == nil || !strings.Contains(err.Error(), "scenario[0].weight") {
				t.Fatalf("weight %s: %v", w, err)
			}
		}
	})
}

// Issue 41, item 6a: a file the experiment names (targets, a body_file, or
// a directory on the way to it) is swapped for a symbolic link to a file
// outside the experiment's directory after validation checked it and
// before the run reads it. The run's reads (trial.CheckRequests, then a
// trial's load against a real HTTP server) refuse the link: the outside
// file's content is in no error and in no request. The old code checked
// the path at validation and then opened it following links.
func TestAttackExperimentFileSwappedAfterValidation(t *testing.T) {
	const outside = "TOPSECRET-swapped-in"
	body := "[[scenario]]\nname = \"custom\"\nmethod = \"POST\"\npath = \"/artist\"\nbody_file = \"d/b.json\"\n"
	for _, c := range []struct {
		name, top, custom string
		swap              string // what is replaced by a link: a file or the directory d
	}{
		{"targets", `targets = "d/t.http"`, "", "d/t.http"},
		{"targets-directory", `targets = "d/t.http"`, "", "d"},
		{"body-file", "", body, "d/b.json"},
		{"body-file-directory", "", body, "d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, dir := attackDir(t)
			// Outside the experiment's directory: the same names, holding
			// what a run would send.
			out := filepath.Join(t.TempDir(), "d")
			for _, d := range []string{filepath.Join(dir, "d"), out} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			files := map[string]string{"t.http": "GET http://localhost/artist\n", "b.json": `{"name": "x"}`}
			for name, text := range files {
				writeFile(t, filepath.Join(dir, "d", name), text)
				writeFile(t, filepath.Join(out, name), strings.ReplaceAll(strings.ReplaceAll(text, "artist", outside), `"x"`, `"`+outside+`"`))
			}
			e, err := experiments.LoadWith(writeExperiment(t, dir, c.top, c.custom), nil)
			if err != nil {
				t.Fatalf("validation refused a sound experiment: %v", err)
			}
			if err := trial.CheckRequests(e); err != nil {
				t.Fatalf("CheckRequests before the swap: %v", err)
			}
			// The swap, after validation.
			victim := filepath.Join(dir, c.swap)
			if err := os.RemoveAll(victim); err != nil {
				t.Fatal(err)
			}
			to := out
			if c.swap != "d" {
				to = filepath.Join(out, filepath.Base(c.swap))
			}
			if err := os.Symlink(to, victim); err != nil {
				t.Fatal(err)
			}

			err = trial.CheckRequests(e)
			if err == nil || !strings.Contains(err.Error(), "symbolic link") || strings.Contains(err.Error(), outside) {
				t.Errorf("CheckRequests after the swap: want a refusal naming the symbolic link, without the outside file's content, got: %v", err)
			}
			var seen []string
			var mu sync.Mutex
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				seen = append(seen, r.URL.Path+" "+string(b))
				mu.Unlock()
				w.Write([]byte("[]"))
			}))
			defer srv.Close()
			sc := e.Custom[len(e.Custom)-1]
			spec := lab.LoadSpec{Scenario: sc.Name, Custom: &sc, Seed: 1, Load: lab.Load{Model: lab.ModelClosed, Connections: 1,
				Duration: 200 * time.Millisecond, Timeout: time.Second}}
			_, err = (&trial.Loader{Target: loadgen.Target{URL: srv.URL}}).Load(context.Background(), spec)
			if err == nil || !strings.Contains(err.Error(), "symbolic link") || strings.Contains(err.Error(), outside) {
				t.Errorf("a trial's load after the swap: want a refusal naming the symbolic link, without the outside file's content, got: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, r := range seen {
				if strings.Contains(r, outside) {
					t.Fatalf("the run sent the outside file's content: %q", r)
				}
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The bounds experiments checks a file against are the ones the load
// generator reads it with.
func TestFileBoundsAreTheGenerators(t *testing.T) {
	if experiments.MaxTargetsFileSize != loadgen.MaxTargetsFileSize || experiments.MaxBodyFileSize != loadgen.MaxBodyFileSize {
		t.Fatalf("experiments %d/%d, loadgen %d/%d", experiments.MaxTargetsFileSize, experiments.MaxBodyFileSize, loadgen.MaxTargetsFileSize, loadgen.MaxBodyFileSize)
	}
}
