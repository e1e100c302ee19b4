package runas

import (
	"os"
	"path/filepath"
)

// RootCacheDir is the lab's cache when it runs as root and
// $XDG_CACHE_HOME is unset: a system directory every account can reach,
// not root's 0700 home, so that the target's account can run what is
// built and copied there.
const RootCacheDir = "/var/cache/pgrst-lab"

// CacheDir is the lab's cache directory: $XDG_CACHE_HOME/pgrst-lab when
// that is set, else RootCacheDir for root and ~/.cache/pgrst-lab for any
// other user. Whoever uses it as root checks that no other user owns or
// can change it (safefile.CheckPrivateDir): `sudo -E` keeps a user's
// XDG_CACHE_HOME.
func CacheDir() (string, error) {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "pgrst-lab"), nil
	}
	if os.Geteuid() == 0 {
		return RootCacheDir, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "pgrst-lab"), nil
}
