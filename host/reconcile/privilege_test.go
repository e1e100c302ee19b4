package reconcile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// asRoot is what these tests need: root, and the unprivileged nobody to
// play another user.
func asRoot(t *testing.T) runas.Account {
	t.Helper()
	if os.Geteuid() != 0 {
		labtest.Need(t, "what a root lab runs as another user needs root")
	}
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		labtest.Need(t, "no user nobody: %v", err)
	}
	return nobody
}

// theirs makes a directory under base that nobody owns: a place another
// user controls (the reviewer's /D).
func theirs(t *testing.T, base string, nobody runas.Account) string {
	t.Helper()
	d := filepath.Join(base, "D")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(d, nobody.UID, nobody.GID); err != nil {
		t.Fatal(err)
	}
	return d
}

// Issue 52, finding 1: every check of a binary ran it as root (--version
// four times, --dump-config once) before its owner was checked. Now a
// binary another user could replace is refused before it runs at all, and
// one the lab may run answers as the target's account: the hostile
// wrapper's uid log stays empty, the good one's never says 0. Real
// PostgREST behind both, 14.17 and 13.0.8.
func TestProbesNeverRunAsRoot(t *testing.T) {
	nobody := asRoot(t)
	labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) {
		ctx := context.Background()
		base := labtest.SharedDir(t)
		good := labtest.NewUIDWrapper(t, filepath.Join(base, "bin", "postgrest"), filepath.Join(base, "good.log"), real.Path)
		d := theirs(t, base, nobody)
		evil := labtest.NewUIDWrapper(t, filepath.Join(d, "pgw"), filepath.Join(base, "evil.log"), real.Path)
		if err := os.Chown(evil.Path, nobody.UID, nobody.GID); err != nil {
			t.Fatal(err)
		}
		if v, err := BinaryVersion(ctx, good.Path); err != nil || !strings.HasPrefix(v, "PostgREST ") {
			t.Errorf("BinaryVersion(good) = %q, %v", v, err)
		}
		if keys, err := BinaryConfigKeys(ctx, good.Path); err != nil || !keys["db-uri"] {
			t.Errorf("BinaryConfigKeys(good) = %d keys, %v", len(keys), err)
		}
		e := &lab.Experiment{Name: "x", Variants: []lab.Variant{{Name: "a", Binary: good.Path}, {Name: "b"}}}
		var w bytes.Buffer
		ServerTimingOn(ctx, e, real.Path, &w)
		if n := good.NoRoot(t); n != 3 {
			t.Errorf("the good wrapper ran %d times, want 3 (--version, --dump-config twice)", n)
		}
		if _, err := BinaryVersion(ctx, evil.Path); err == nil || !strings.Contains(err.Error(), "belongs to uid") {
			t.Errorf("BinaryVersion(evil) = %v, want refused for its owner", err)
		}
		if _, err := BinaryConfigKeys(ctx, evil.Path); err == nil {
			t.Error("BinaryConfigKeys(evil): no error")
		}
		e.Variants[0].Binary = evil.Path
		ServerTimingOn(ctx, e, real.Path, &w)
		if n := len(evil.UIDs(t)); n != 0 {
			t.Errorf("the hostile wrapper ran %d times (as %v)", n, evil.UIDs(t))
		}
	})
}

// Issue 52, finding 2: a link in a directory its owner controls passed
// the check (only its target was checked), the unit kept the link, and a
// later repoint ran a script as root and as the target; the stack's
// binary was not checked again at an apply. Now the unit runs root's copy
// of the file the link led to, and every apply checks the stack's binary
// again: repointed at another user's script, the apply is refused and the
// script never runs. Under both supervisors, with real PostgREST.
func TestStackBinaryCheckedAtEveryApply(t *testing.T) {
	nobody := asRoot(t)
	for _, sup := range []systemd.Mode{systemd.ModeDirect, systemd.ModeSystemd} {
		t.Run(string(sup), func(t *testing.T) {
			real := labtest.PostgREST(t)
			base := labtest.SharedDir(t)
			own := labtest.CopyExecutable(t, real, filepath.Join(base, "bin", "postgrest"))
			d := theirs(t, base, nobody)
			link := filepath.Join(d, "pg")
			if err := os.Symlink(own, link); err != nil {
				t.Fatal(err)
			}
			l, st := localOn(t, stack.Options{Supervisor: sup, Postgrest: link})
			store, err := runas.DefaultStore()
			if err != nil {
				t.Fatal(err)
			}
			pid := mainPID(t, l)
			exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
			if !store.Contains(exe) {
				t.Fatalf("the target runs %s, want root's copy in %s", exe, store.Dir)
			}
			ctx := context.Background()
			if _, err := l.Apply(ctx, lab.Variant{Name: "before", PostgREST: map[string]string{"db-pool": "3"}}); err != nil {
				t.Fatalf("apply with the link as it was: %v", err)
			}
			evil := labtest.NewUIDWrapper(t, filepath.Join(d, "evil.sh"), filepath.Join(st.Dir, "evil.log"), real)
			if err := os.Chown(evil.Path, nobody.UID, nobody.GID); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(evil.Path, link); err != nil {
				t.Fatal(err)
			}
			_, err = l.Apply(ctx, lab.Variant{Name: "after", PostgREST: map[string]string{"db-pool": "4"}})
			if err == nil || !strings.Contains(err.Error(), "belongs to uid") {
				t.Errorf("apply after the link was repointed: %v, want refused", err)
			}
			if err := l.Restore(ctx); err != nil {
				t.Errorf("restore: %v", err)
			}
			if n := len(evil.UIDs(t)); n != 0 {
				t.Errorf("the repointed link's script ran %d times (uids %v)", n, evil.UIDs(t))
			}
		})
	}
}

// The target runs confined (issue 52, finding 6); a variant's sandbox =
// false (experiments/sandbox.toml measures what the sandbox costs) runs it
// bare, and the restore confines it again. Under both supervisors, with
// real PostgREST.
func TestSandboxedTargetAndABareVariant(t *testing.T) {
	asRoot(t)
	for _, sup := range []systemd.Mode{systemd.ModeDirect, systemd.ModeSystemd} {
		t.Run(string(sup), func(t *testing.T) {
			l, _ := localOn(t, stack.Options{Supervisor: sup, Postgrest: labtest.PostgREST(t)})
			ctx := context.Background()
			confined := func(want bool) {
				t.Helper()
				pid := mainPID(t, l)
				nnp, bnd := labtest.ProcStatus(t, pid, "NoNewPrivs"), labtest.ProcStatus(t, pid, "CapBnd")
				if got := nnp == "1" && bnd == "0000000000000000"; got != want {
					t.Errorf("NoNewPrivs %s, CapBnd %s: confined %v, want %v", nnp, bnd, got, want)
				}
			}
			confined(true)
			applied, err := l.Apply(ctx, lab.Variant{Name: "bare", Unsandboxed: true})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(applied.Changes, func(c lab.Change) bool { return c.Key == "sandbox" && c.To == "off" }) {
				t.Errorf("changes %+v do not say the sandbox is off", applied.Changes)
			}
			confined(false)
			if err := l.Restore(ctx); err != nil {
				t.Fatal(err)
			}
			confined(true)
		})
	}
}

// cpusOf is the CPUs process pid may run on, as the kernel says.
func cpusOf(t *testing.T, pid int) string { return labtest.ProcStatus(t, pid, "Cpus_allowed_list") }

// Issue 53: a capacity figure gives the server cores of its own. The
// partition's CPU list reaches the target and PostgreSQL as CPUAffinity
// and, where the supervisor can apply it, as a cgroup cpuset
// (AllowedCPUs: the direct supervisor's own cgroup, v1 or v2); read back
// from the kernel, every process of both runs on CPU 1 only, the load
// generator's CPU 0 apart; the restore puts them back on every CPU.
func TestServerPinnedToItsOwnCores(t *testing.T) {
	asRoot(t)
	if runtime.NumCPU() < 2 {
		labtest.Need(t, "pinning needs two CPUs (this machine has %d)", runtime.NumCPU())
	}
	for _, sup := range []systemd.Mode{systemd.ModeDirect, systemd.ModeSystemd} {
		t.Run(string(sup), func(t *testing.T) {
			l, st := localOn(t, stack.Options{Supervisor: sup, Postgrest: labtest.PostgREST(t)})
			ctx := context.Background()
			e := &lab.Experiment{Load: lab.Load{Model: lab.ModelSearch}}
			if note := e.OwnCores(2); note == "" {
				t.Fatal("no partition for a capacity figure on two CPUs")
			}
			v := lab.Variant{Name: "pinned", DropIn: map[string]string{"CPUAffinity": e.Partition.PostgREST}, PGCPUAffinity: e.Partition.PostgreSQL}
			if _, err := l.Apply(ctx, v); err != nil {
				t.Fatal(err)
			}
			pids := map[string]int{"target": mainPID(t, l)}
			pg, err := st.Controller.Properties(ctx, st.Postgres.Name)
			if err != nil {
				t.Fatal(err)
			}
			pids["postgres"] = pg.MainPID
			for what, pid := range pids {
				if got := cpusOf(t, pid); got != "1" {
					t.Errorf("%s (pid %d) runs on CPUs %s, want 1 (the generator has 0)", what, pid, got)
				}
				if sup == systemd.ModeDirect {
					got := cgroupCpuset(t, pid)
					t.Logf("%s: cgroup cpuset %q", what, got)
					if got != "1" {
						t.Errorf("%s's cgroup cpuset is %q, want 1", what, got)
					}
				}
			}
			if err := l.Restore(ctx); err != nil {
				t.Fatal(err)
			}
			if got := cpusOf(t, mainPID(t, l)); got != "0-1" {
				t.Errorf("after the restore the target runs on CPUs %s, want 0-1", got)
			}
		})
	}
}

// cgroupCpuset is cpuset.cpus of pid's cgroup (v1's cpuset hierarchy, or
// v2's), "" when it has none of its own.
func cgroupCpuset(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || f[2] == "/" {
			continue
		}
		var p string
		switch {
		case f[1] == "cpuset":
			p = filepath.Join("/sys/fs/cgroup/cpuset", f[2], "cpuset.cpus")
		case f[0] == "0" && f[1] == "":
			p = filepath.Join("/sys/fs/cgroup", f[2], "cpuset.cpus")
		default:
			continue
		}
		if v, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(v)) != "" {
			return strings.TrimSpace(string(v))
		}
	}
	return ""
}
