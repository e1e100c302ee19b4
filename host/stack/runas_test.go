package stack

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// psUser is what `ps -o user=` says runs pid.
func psUser(t *testing.T, pid int) string {
	t.Helper()
	out, err := exec.Command("ps", "-o", "user=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		t.Fatalf("ps -o user= -p %d: %v", pid, err)
	}
	return strings.TrimSpace(string(out))
}

// TestTargetRunsAsItsOwnUser: under each supervisor, the real PostgREST
// target and its twin run as the unprivileged target user (postgrest when
// the lab is root), never root; the config they read is theirs to read
// and no one else's; over the socket they get the authenticator role and
// not the superuser; and a target made to run as root is refused.
func TestTargetRunsAsItsOwnUser(t *testing.T) {
	needPostgres(t)
	bin := labtest.PostgREST(t)
	for _, mode := range []systemd.Mode{systemd.ModeDirect, systemd.ModeSystemd} {
		t.Run(string(mode), func(t *testing.T) {
			if mode == systemd.ModeSystemd {
				labtest.RequireSystemd(t)
			}
			ctx := context.Background()
			dir := stateDir(t)
			s := up(t, Options{Dir: dir, Supervisor: mode, Postgrest: bin})
			defer s.Close()
			st, err := s.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want, err := runas.Target(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() == 0 && want.Name != runas.DefaultUser {
				t.Fatalf("a root lab runs the target as %s, want %s", want.Name, runas.DefaultUser)
			}
			if st.TargetUser != want.Name {
				t.Errorf("status says the target user is %q, want %q", st.TargetUser, want.Name)
			}
			if got := psUser(t, st.Target.PID); got != want.Name || got == "root" {
				t.Errorf("ps -o user of the target (pid %d): %q, want %q", st.Target.PID, got, want.Name)
			}
			tw, err := s.Twin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			p, err := st.Controller.Properties(ctx, tw.Unit)
			if err != nil {
				t.Fatal(err)
			}
			if got := psUser(t, p.MainPID); got != want.Name {
				t.Errorf("ps -o user of the twin (pid %d): %q, want %q", p.MainPID, got, want.Name)
			}
			for _, c := range []string{st.Config, tw.Config} {
				fi, err := os.Stat(c)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm()&0o007 != 0 {
					t.Errorf("%s is mode %04o: others may read the target's config (and its secrets)", c, fi.Mode().Perm())
				}
			}
			if os.Geteuid() != 0 {
				return
			}
			// The target's account reaches the socket as authenticator, never as the superuser.
			psql := func(role string) error {
				return labtest.AsUser(t, want.Name, "psql", "-X", "-h", st.PGSocketDir, "-p", strconv.Itoa(st.PGPort),
					"-U", role, "-d", Database, "-c", "SELECT 1")
			}
			if err := psql("authenticator"); err != nil {
				t.Errorf("the target's account cannot connect as authenticator over the socket: %v", err)
			}
			if err := psql("postgres"); err == nil || !strings.Contains(err.Error(), "authentication failed") {
				t.Errorf("the target's account connected as the superuser over the socket: %v", err)
			}
			// The target over the unix socket, as its own user, is ready.
			setConfig(t, st.Config, "db-uri", st.UnixURI)
			if err := st.Controller.Restart(ctx, st.Target.Name); err != nil {
				t.Fatal(err)
			}
			if err := waitTarget(ctx, st.Controller, s.facts); err != nil {
				t.Fatalf("target on the unix socket: %v", err)
			}
			// A target unit made to run as root is refused at the gate.
			spec := targetSpec(s.facts)
			spec.User = ""
			if err := st.Controller.Install(ctx, spec); err != nil {
				t.Fatal(err)
			}
			if err := st.Controller.Restart(ctx, st.Target.Name); err != nil {
				t.Fatal(err)
			}
			err = waitTarget(ctx, st.Controller, s.facts)
			oneLine(t, err, "runs as root", "unprivileged")
		})
	}
}

func setConfig(t *testing.T, path, key, val string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := configs.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := cf.Set(key, configs.String(val)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, cf.Bytes(), 0); err != nil {
		t.Fatal(err)
	}
}

// TestTargetBinaryOthersCouldReplace: a binary another user owns, or one
// in a directory others may write, is refused before anything runs; one
// the target's account cannot reach (under root's 0700 home) runs from a
// copy in the state directory.
func TestTargetBinaryOthersCouldReplace(t *testing.T) {
	needPostgres(t)
	if os.Geteuid() != 0 {
		t.Skip("only a root lab runs the target as another user")
	}
	bin := labtest.PostgREST(t)
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		t.Fatal(err)
	}
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	planted := labtest.CopyExecutable(t, bin, filepath.Join(open, "postgrest"))
	theirs := labtest.CopyExecutable(t, bin, filepath.Join(t.TempDir(), "theirs", "postgrest"))
	if err := os.Chown(theirs, nobody.UID, nobody.GID); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ bin, want string }{{planted, "writable by group or others"}, {theirs, "belongs to uid"}} {
		_, err := Up(context.Background(), Options{Dir: stateDir(t), Supervisor: systemd.ModeDirect, Postgrest: c.bin})
		oneLine(t, err, c.want)
	}

	closed, err := os.MkdirTemp("", "closed-") // 0700: the target's account cannot enter it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(closed) })
	private := filepath.Join(closed, "private")
	own := labtest.CopyExecutable(t, bin, filepath.Join(private, "postgrest"))
	dir := stateDir(t)
	s := up(t, Options{Dir: dir, Supervisor: systemd.ModeDirect, Postgrest: own})
	defer s.Close()
	st, err := s.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Binary != own {
		t.Errorf("status names %s, want the binary asked for (%s)", st.Binary, own)
	}
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(st.Target.PID), "exe"))
	if err != nil {
		t.Fatal(err)
	}
	if store, err := runas.DefaultStore(); err != nil || !store.Contains(exe) {
		t.Errorf("the target runs %s, want a copy in the lab's store %s (%v)", exe, store.Dir, err)
	}
	fi, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 0 || fi.Mode().Perm()&0o022 != 0 {
		t.Errorf("the copy %s is uid %d mode %04o: others could replace it", exe, st.Uid, fi.Mode().Perm())
	}
}
