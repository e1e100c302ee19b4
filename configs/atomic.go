package configs

import (
	"os"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
)

// testHookBeforeRename, when set (by tests), runs after a temp file is
// written and synced and before it replaces the target.
var testHookBeforeRename func(path string)

// atomicWrite replaces path with data, mode and owner (see package
// atomicfile). uid or gid < 0 leaves that id as created.
func atomicWrite(path string, data []byte, mode os.FileMode, uid, gid int) error {
	return atomicfile.Write(path, data, atomicfile.Options{Mode: mode, Owner: &atomicfile.Owner{UID: uid, GID: gid},
		BeforeRename: testHookBeforeRename})
}

func syncDir(dir string) error { return atomicfile.SyncDir(dir) }

// removeTemps deletes temp files a killed atomicWrite left next to path.
func removeTemps(path string) { atomicfile.RemoveTemps(path) }
