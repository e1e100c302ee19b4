package labtest

import (
	"fmt"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// AsPostgres runs argv as the postgres system user (the user PostgreSQL
// runs as), with that user's rights only: for attacks from the database
// server's account. The test must run as root.
func AsPostgres(t testing.TB, argv ...string) error {
	t.Helper()
	return AsUser(t, "postgres", argv...)
}

// AsUser runs argv as the named user, with that user's rights only (its
// primary group, no other): for attacks from a service's account, e.g.
// the target's. The test must run as root.
func AsUser(t testing.TB, name string, argv ...string) error {
	t.Helper()
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatalf("the %s user: %v", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
