package stack

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// pgUser is who runs PostgreSQL: the lab's own user, or the "postgres"
// system user when the lab runs as root (initdb refuses root).
type pgUser struct {
	name     string // "" = the lab's user
	uid, gid int
}

func lookupPGUser() (pgUser, error) {
	if os.Getuid() != 0 {
		return pgUser{uid: os.Getuid(), gid: os.Getgid()}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return pgUser{}, fmt.Errorf("running as root needs a 'postgres' system user to run PostgreSQL (install PostgreSQL's package, or run the lab as another user): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return pgUser{name: "postgres", uid: uid, gid: gid}, nil
}

func (u pgUser) credential() *syscall.Credential {
	if u.name == "" {
		return nil
	}
	return &syscall.Credential{Uid: uint32(u.uid), Gid: uint32(u.gid)}
}

// mkdirOwned makes dir (mode 0700) owned by u. dir must be a directory,
// not a link to one: it is in the state dir, which only the lab's user can
// write, and it is given to u by its own name (lchown).
func (u pgUser) mkdirOwned(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (remove it, or choose another --dir): %v", dir, err)
	}
	if u.name != "" {
		if err := os.Lchown(dir, u.uid, u.gid); err != nil {
			return fmt.Errorf("give %s to %s: %w", dir, u.name, err)
		}
	}
	return nil
}

// checkTraversable fails with advice when u cannot reach dir (every parent
// must be searchable by u), e.g. a state dir under a 0700 home of root:
// runas.Account.CanEnter, which the target's account is checked with too.
func (u pgUser) checkTraversable(dir string) error {
	if u.name == "" {
		return nil
	}
	if err := (runas.Account{Name: u.name, UID: u.uid, GID: u.gid}).CanEnter(dir); err != nil {
		return fmt.Errorf("state dir %s: PostgreSQL runs as user %s: %w (chmod o+x that directory, or choose a --dir it can reach)", dir, u.name, err)
	}
	return nil
}
