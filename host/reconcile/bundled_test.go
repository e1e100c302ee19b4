package reconcile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// bundledExperimentsServe applies every variant of every bundled experiment
// to the target, checks that the target runs what the variant asked for and
// serves each of the experiment's scenarios under a short load, and puts
// the original back. binaries gets two copies of the target's binary, versions
// a third.
func bundledExperimentsServe(t *testing.T, l *Server, st stack.Status) {
	ctx := context.Background()
	bin := t.TempDir()
	env := map[string]string{}
	for _, v := range []string{"PGRST_RELEASE", "PGRST_BRANCH", "LAB_BUILD"} { // binaries' and versions' $(VAR)s
		env[v] = filepath.Join(bin, strings.ToLower(v))
		labtest.CopyExecutable(t, st.Binary, env[v])
	}
	names := experiments.Names()
	for _, want := range []string{"aa", "binaries", "log-level", "pg-settings", "pg-synchronous-commit", "pool-size", "prepared-statements", "rts", "socket-vs-tcp"} {
		if !slices.Contains(names, want) {
			t.Errorf("bundled experiment %s missing from %v", want, names)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if name == "large-responses" {
				t.Skip("its table is generated (lab fixture chinook --rows) and its limits are there to be hit: cmd/lab's run of it covers it")
			}
			e, err := experiments.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := experiments.Expand(e, func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err != nil {
				t.Fatal(err)
			}
			for _, v := range e.Variants {
				if name == "memory" && !v.Baseline {
					continue // its small limits are there to be OOM-killed (cmd/lab's sizing run covers one)
				}
				if s := v.PostgREST["db-schemas"]; strings.Contains(s, "gen") || s == fixture.LoadtestSchema {
					// generated schemas (lab fixture chinook --tables) and PostgREST's load-test schema
					// (--postgrest-loadtest): cmd/lab's runs of these experiments make and serve them
					continue
				}
				a, err := l.Apply(ctx, v)
				if err != nil {
					t.Fatalf("variant %s: %v", v.Name, err)
				}
				runsVariant(t, l, st, v)
				var served []string
				for _, sc := range e.Scenarios {
					spec := lab.LoadSpec{Scenario: sc, JWTSecret: e.JWTSecret, JWTPrivateKey: e.JWTPrivateKey}
					for i := range e.Custom {
						if e.Custom[i].Name == sc {
							spec.Custom = &e.Custom[i]
						}
					}
					out := shortLoadSpec(t, st.URL, spec, 2, 300*time.Millisecond, 100)
					served = append(served, fmt.Sprintf("%s %d", sc, out.Stats.Requests))
				}
				t.Logf("%s: ready after %v; %s", v.Name, a.ReadyAfter.Round(time.Millisecond), strings.Join(served, ", "))
			}
			if err := l.Restore(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// runsVariant checks that the target's process and config are the
// variant's: binary, arguments, PostgREST keys, PostgreSQL settings.
func runsVariant(t *testing.T, l *Server, st stack.Status, v lab.Variant) {
	t.Helper()
	pid := mainPID(t, l)
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if v.Binary != "" && !runsBinary(st, exe, v.Binary) {
		t.Errorf("variant %s: runs %s, want %s or the lab's copy of it in %s/bin", v.Name, exe, v.Binary, st.Dir)
	}
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if len(v.Args) > 0 && !strings.Contains(string(cmdline), strings.Join(v.Args, "\x00")+"\x00") {
		t.Errorf("variant %s: command line %q lacks %q", v.Name, cmdline, v.Args)
	}
	conf, _ := os.ReadFile(st.Config)
	var decoded map[string]any // a value with quotes (a JWKS) is escaped in the file: compare it decoded
	_, _ = toml.Decode(string(conf), &decoded)
	for k, val := range v.PostgREST {
		if k == "db-uri" {
			if (val == "unix") != strings.Contains(string(conf), "host="+st.PGSocketDir) {
				t.Errorf("variant %s: db-uri %s not in the config:\n%s", v.Name, val, conf)
			}
			continue
		}
		if !strings.Contains(string(conf), k+" = ") || (!strings.Contains(string(conf), val) && fmt.Sprint(decoded[k]) != val) || (k == "jwt-secret" && strings.Contains(string(conf), "<redacted>")) {
			t.Errorf("variant %s: %s = %s not in the config:\n%s", v.Name, k, val, conf)
		}
	}
	for k, val := range v.PostgreSQL {
		if got := pgSetting(t, st.AdminURI, k); got != val {
			t.Errorf("variant %s: PostgreSQL %s = %s, want %s", v.Name, k, got, val)
		}
	}
}

// runsBinary reports whether exe is bin or the lab's copy of it in its
// store, which a root lab runs (runas.Account.Pin).
func runsBinary(st stack.Status, exe, bin string) bool {
	if exe == bin {
		return true
	}
	store, err := runas.DefaultStore()
	if err != nil || !store.Contains(exe) {
		return false
	}
	a, err1 := os.ReadFile(exe)
	b, err2 := os.ReadFile(bin)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}
