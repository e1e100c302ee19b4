package direct

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// lockUnit serialises changes to one unit's state: d.mu within this
// process, and flock(2) on <state dir>/<unit>.lock across lab processes
// (and across Supervisor values in one process), so a reaper in one process
// cannot overwrite what a restart in another just recorded. The lock is
// best effort: if the lock file cannot be used, d.mu alone is held.
func (d *Supervisor) lockUnit(name string) (unlock func()) {
	d.mu.Lock()
	if systemd.ValidateUnitName(name) != nil {
		return d.mu.Unlock
	}
	f, err := os.OpenFile(filepath.Join(d.dir, name+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return d.mu.Unlock
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	return func() {
		f.Close() // releases the flock
		d.mu.Unlock()
	}
}
