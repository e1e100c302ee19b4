package configs

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// RestorePGSettingsOffline puts back postgresql.auto.conf of every
// journalled cluster from the journal's copy of its original bytes, with
// no connection: it works when the server cannot start (a variant set
// shared_buffers = 200GB). Mode and owner of the file are kept. The server
// must be restarted afterwards to read it; restarted reports the clusters
// written. Entries are dropped once their file is back.
func RestorePGSettingsOffline(j *Journal) (restored []string, err error) {
	unlock, err := j.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	var errs []error
	for _, p := range j.Pending() {
		if p.Kind != EntryPG {
			continue
		}
		e := p
		dataDir, ok := strings.CutPrefix(e.Path, "postgresql:")
		if !ok || !filepath.IsAbs(dataDir) {
			errs = append(errs, fmt.Errorf("journal entry %q: not a PostgreSQL data directory", e.Path))
			continue
		}
		file := filepath.Join(dataDir, "postgresql.auto.conf")
		cur, err := readState(file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		mode, uid, gid := cur.mode, cur.uid, cur.gid
		if cur.missing {
			mode, uid, gid = 0o600, -1, -1
		}
		if hashOf(cur.data) != e.OriginalSHA256 || cur.missing {
			if err := atomicWrite(file, e.Original, mode, uid, gid); err != nil {
				errs = append(errs, fmt.Errorf("restore %s from the journal: %w", file, err))
				continue
			}
		}
		if err := j.drop(&e); err != nil {
			errs = append(errs, err)
			continue
		}
		restored = append(restored, dataDir)
	}
	return restored, errors.Join(errs...)
}
