package configs

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runRewriter is the child process of TestKillMidRewrite (TestMain runs
// it when CONFIGS_HELPER=rewriter). It rewrites the files in CONFIGS_FILES through the
// journal in CONFIGS_STATE, forever, printing progress, until killed. With
// CONFIGS_PAUSE_AT=n it stops inside the n-th atomic write, after the temp
// file is synced and before the rename.
func runRewriter() {
	files := strings.Split(os.Getenv("CONFIGS_FILES"), ":")
	j, err := OpenJournal(os.Getenv("CONFIGS_STATE"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	pauseAt, _ := strconv.Atoi(os.Getenv("CONFIGS_PAUSE_AT"))
	renames := 0
	testHookBeforeRename = func(path string) {
		if strings.Contains(path, "journal") {
			return
		}
		renames++
		if renames == pauseAt {
			fmt.Println("paused before rename of", path)
			select {} // wait to be killed
		}
	}
	for i := int64(1); i < 1e6; i++ {
		for _, p := range files {
			f, err := ParseFile(p)
			if err != nil {
				fmt.Println("error", err)
				os.Exit(2)
			}
			_ = f.Set("db-pool", Int(i))
			_ = f.Set("log-level", String("crit"))
			if err := j.WriteFile(p, f.Bytes()); err != nil {
				fmt.Println("error", err)
				os.Exit(2)
			}
			fmt.Println("wrote", i, p)
		}
	}
}

// TestKillMidRewrite runs a real child process rewriting three configs,
// SIGKILLs it in the middle of the sequence, then shows that the next
// start finds the journal and restores every file byte for byte, with
// its mode and owner.
func TestKillMidRewrite(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pauseAt int    // pause inside this write and kill there
		killOn  string // else kill when this line prefix is printed
	}{
		{name: "inside the 5th write, before rename", pauseAt: 5},
		{name: "inside the 1st write", pauseAt: 1},
		{name: "free running", killOn: "wrote 7 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			origs := map[string][]byte{}
			var uid, gid int
			for _, g := range []string{"tutorial.conf", "odd-spacing.conf", "groups-and-lists.conf"} {
				b, err := os.ReadFile(filepath.Join("testdata/golden", g))
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, g)
				uid, gid = writeFixture(t, p, b)
				paths = append(paths, p)
				origs[p] = b
			}
			state := filepath.Join(dir, "state")

			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "CONFIGS_HELPER=rewriter", "CONFIGS_STATE="+state,
				"CONFIGS_FILES="+strings.Join(paths, ":"), "CONFIGS_PAUSE_AT="+strconv.Itoa(tc.pauseAt))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			lines := make(chan string)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			timeout := time.After(30 * time.Second)
			var last string
		wait:
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("helper exited before the kill point; last line %q", last)
					}
					last = l
					if strings.HasPrefix(l, "error") {
						t.Fatalf("helper: %s", l)
					}
					if (tc.pauseAt > 0 && strings.HasPrefix(l, "paused")) || (tc.killOn != "" && strings.HasPrefix(l, tc.killOn)) {
						break wait
					}
				case <-timeout:
					t.Fatalf("helper did not reach the kill point in 30s; last line %q", last)
				}
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			go func() {
				for range lines {
				}
			}()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("helper not killed by SIGKILL: %v", cmd.ProcessState)
			}

			// The next start: the journal says what the killed run left.
			j, err := OpenJournal(state)
			if err != nil {
				t.Fatal(err)
			}
			pending := j.Pending()
			if len(pending) == 0 {
				t.Fatal("no pending journal entries after the kill")
			}
			changed := 0
			for _, p := range paths {
				if b, _ := os.ReadFile(p); string(b) != string(origs[p]) {
					changed++
				}
			}
			t.Logf("killed after %q: %d journal entries pending, %d of %d files changed on disk", last, len(pending), changed, len(paths))
			done, err := j.Restore()
			if err != nil {
				t.Fatalf("restore: %v", err)
			}
			if len(done) != len(pending) {
				t.Fatalf("restored %d of %d entries", len(done), len(pending))
			}
			for _, p := range paths {
				assertSame(t, p, origs[p], 0o640, uid, gid)
			}
			if len(j.Pending()) != 0 {
				t.Fatal("journal not cleared")
			}
			if m, _ := filepath.Glob(filepath.Join(dir, ".*lab-tmp*")); len(m) != 0 {
				t.Fatalf("temp files left: %v", m)
			}
		})
	}
}
