package configs

import (
	"fmt"
	"os"
	"path/filepath"
)

// testHookBeforeRename, when set (by tests), runs after a temp file is
// written and synced and before it replaces the target.
var testHookBeforeRename func(path string)

// atomicWrite replaces path with data: a temp file in the same directory
// gets the bytes, mode and owner, is fsynced and renamed over path, and the
// directory is fsynced. uid or gid < 0 leaves the owner as created.
func atomicWrite(path string, data []byte, mode os.FileMode, uid, gid int) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".lab-tmp-*")
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
	if err := tmp.Chmod(mode.Perm() | (mode & (os.ModeSetuid | os.ModeSetgid | os.ModeSticky))); err != nil {
		return fmt.Errorf("chmod %s: %w", name, err)
	}
	if uid >= 0 || gid >= 0 {
		if err := tmp.Chown(uid, gid); err != nil {
			return fmt.Errorf("chown %s: %w", name, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", name, err)
	}
	if testHookBeforeRename != nil {
		testHookBeforeRename(path)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	ok = true
	return syncDir(dir)
}

func syncDir(dir string) error {
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

// removeTemps deletes temp files a killed atomicWrite left next to path.
func removeTemps(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	m, _ := filepath.Glob(filepath.Join(dir, "."+base+".lab-tmp-*"))
	for _, f := range m {
		os.Remove(f)
	}
}
