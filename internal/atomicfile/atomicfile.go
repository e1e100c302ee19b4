// Package atomicfile replaces files so that a reader, a service manager's
// reload or a crash never sees half of one: the bytes go to a temporary
// file in the same directory, which gets its mode and owner, is fsynced and
// renamed over the target; then the directory is fsynced. It is a leaf
// package (no imports from this module): configs, systemd, the reports and
// the stack all write through it.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// TempPrefix starts the names of temporary files: "." + base + TempPrefix.
const TempPrefix = ".lab-tmp-"

// Options say how the new file is made.
type Options struct {
	// Mode is the file's mode (permission bits plus setuid, setgid and
	// sticky); 0 means 0644.
	Mode os.FileMode
	// Owner, when set, is given the file; nil leaves it as created.
	Owner *Owner
	// BeforeRename, when set, runs after the temporary file is complete and
	// synced and before it replaces path (crash tests kill the process here).
	BeforeRename func(path string)
}

// Owner is a file's owner; -1 leaves that id as created.
type Owner struct{ UID, GID int }

// Write replaces path with data.
func Write(path string, data []byte, o Options) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+TempPrefix+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	mode := o.Mode
	if mode == 0 {
		mode = 0o644
	}
	if err := tmp.Chmod(mode.Perm() | (mode & (os.ModeSetuid | os.ModeSetgid | os.ModeSticky))); err != nil {
		return fmt.Errorf("chmod %s: %w", name, err)
	}
	if o.Owner != nil && (o.Owner.UID >= 0 || o.Owner.GID >= 0) {
		if err := tmp.Chown(o.Owner.UID, o.Owner.GID); err != nil {
			return fmt.Errorf("chown %s: %w", name, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", name, err)
	}
	if o.BeforeRename != nil {
		o.BeforeRename(path)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	ok = true
	return SyncDir(dir)
}

// SyncDir fsyncs a directory, so that a rename or removal in it is durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("fsync dir %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync dir %s: %w", dir, err)
	}
	return nil
}

// RemoveTemps deletes temporary files that a killed Write left next to path.
func RemoveTemps(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	m, _ := filepath.Glob(filepath.Join(dir, "."+base+TempPrefix+"*"))
	for _, f := range m {
		os.Remove(f)
	}
}
