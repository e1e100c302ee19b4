package runas

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
)

// DefaultUser is the system user the target runs as when the lab is root
// and no other is named: the one PostgREST's distribution packages use.
const DefaultUser = "postgrest"

// EnvUser names another user for the target ($LAB_TARGET_USER).
const EnvUser = "LAB_TARGET_USER"

// Account is a user that runs a process.
type Account struct {
	Name string
	UID  int
	GID  int
	Home string // its home directory in the user database ("" when unknown)
}

// Self reports whether the account is the lab's own effective user: the
// target then needs no change of user.
func (a Account) Self() bool { return a.UID == os.Geteuid() }

// String is the account's name and uid, for messages.
func (a Account) String() string { return fmt.Sprintf("%s (uid %d)", a.Name, a.UID) }

// Lookup finds a user by name.
func Lookup(name string) (Account, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return Account{}, err
	}
	return fromUser(u)
}

func fromUser(u *user.User) (Account, error) {
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return Account{}, fmt.Errorf("user %s: uid %q: %w", u.Username, u.Uid, err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return Account{}, fmt.Errorf("user %s: gid %q: %w", u.Username, u.Gid, err)
	}
	return Account{Name: u.Username, UID: uid, GID: gid, Home: u.HomeDir}, nil
}

// Current is the lab's own effective user.
func Current() (Account, error) {
	u, err := user.LookupId(strconv.Itoa(os.Geteuid()))
	if err != nil {
		return Account{Name: strconv.Itoa(os.Geteuid()), UID: os.Geteuid(), GID: os.Getegid()}, nil
	}
	return fromUser(u)
}

// Target is the account the target runs as. A lab that is not root runs
// it as itself (name must then be "" or its own name). A root lab runs it
// as name ("" = $LAB_TARGET_USER, else DefaultUser), creating DefaultUser
// as a system user when it is missing; a user named by the operator must
// exist. An account with uid 0 is refused.
func Target(ctx context.Context, name string) (Account, error) {
	if name == "" {
		name = os.Getenv(EnvUser)
	}
	if os.Geteuid() != 0 {
		self, err := Current()
		if err != nil {
			return Account{}, err
		}
		if name != "" && name != self.Name {
			return Account{}, fmt.Errorf("target user %s: the lab runs as %s and may not switch users; run it as root, or drop the target user", name, self.Name)
		}
		return self, nil
	}
	named := name != ""
	if !named {
		name = DefaultUser
	}
	a, err := Lookup(name)
	var unknown user.UnknownUserError
	if errors.As(err, &unknown) && !named {
		if err := create(ctx, name); err != nil {
			return Account{}, err
		}
		a, err = Lookup(name)
	}
	if err != nil {
		return Account{}, fmt.Errorf("target user %s: %w (create it, e.g. `useradd --system --user-group --no-create-home --shell /usr/sbin/nologin %s`, or name another with %s)", name, err, name, EnvUser)
	}
	if a.UID == 0 {
		return Account{}, fmt.Errorf("target user %s has uid 0: PostgREST never runs as root; name an unprivileged user", name)
	}
	return a, nil
}

// create adds name as a system user with a group of its own, no home and
// no login shell (useradd(8)).
func create(ctx context.Context, name string) error {
	bin, err := exec.LookPath("useradd")
	if err != nil {
		return fmt.Errorf("target user %s does not exist and useradd is not on PATH: create an unprivileged system user %s, or name another with %s", name, name, EnvUser)
	}
	cmd := exec.CommandContext(ctx, bin, "--system", "--user-group", "--no-create-home",
		"--home-dir", "/nonexistent", "--shell", nologin(), "--comment", "PostgREST measured by pgrst-lab", name)
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 9 { // created meanwhile by someone else
			return nil
		}
		return fmt.Errorf("create system user %s: %w: %s", name, err, strings.TrimSpace(string(out)))
	}
	return nil
}

func nologin() string {
	for _, p := range []string{"/usr/sbin/nologin", "/sbin/nologin"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "/bin/false"
}
