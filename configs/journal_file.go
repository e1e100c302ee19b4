package configs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// fileState is a file as it is on disk now.
type fileState struct {
	data     []byte
	missing  bool
	mode     os.FileMode
	uid, gid int
}

func readState(path string) (fileState, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileState{missing: true}, nil
	}
	if err != nil {
		return fileState{}, fmt.Errorf("stat %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return fileState{}, fmt.Errorf("%s is not a regular file (%s): refusing to replace it", path, st.Mode().Type())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fileState{}, fmt.Errorf("read %s: %w", path, err)
	}
	s := fileState{data: data, mode: st.Mode(), uid: -1, gid: -1}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		s.uid, s.gid = int(sys.Uid), int(sys.Gid)
	}
	return s, nil
}

// known reports whether the file on disk is one the journal expects: the
// original, what the lab wrote, or what it was writing when it stopped.
func (e *Entry) known(s fileState) bool {
	if s.missing {
		return !e.Existed // absent, as it was originally
	}
	h := hashOf(s.data)
	return h == e.WroteSHA256 || h == e.NextSHA256 || (e.Existed && h == e.OriginalSHA256)
}

func (e *Entry) conflict(s fileState) *ConflictError {
	want, label := e.Wrote, "the lab wrote"
	if e.WroteSHA256 == "" {
		want, label = e.Original, "originally"
	}
	return &ConflictError{Path: e.Path, Detail: describeDiff(label, want, s.data, s.missing)}
}

// WriteFile replaces the file at path with data, journalling first: the
// original bytes, mode, owner and hash are saved (fsynced) in the state
// directory the first time the lab writes path, then the file is replaced
// atomically keeping its mode and owner. Later writes of the same path keep
// the first original. If the file was changed by someone else since the
// lab wrote it, nothing is written and the error is a *ConflictError.
func (j *Journal) WriteFile(path string, data []byte) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	unlock, err := j.lock()
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := readState(abs)
	if err != nil {
		return err
	}
	e, err := j.load(EntryFile, abs)
	if err != nil {
		return err
	}
	if e == nil {
		e = &Entry{Kind: EntryFile, Path: abs, Existed: !cur.missing, Mode: 0o644, UID: -1, GID: -1,
			Original: cur.data, OriginalSHA256: hashOf(cur.data), Started: time.Now().UTC(), PID: os.Getpid()}
		if !cur.missing {
			e.Mode, e.UID, e.GID = cur.mode, cur.uid, cur.gid
		}
	} else if !e.known(cur) {
		return e.conflict(cur)
	}
	e.NextSHA256 = hashOf(data)
	if err := j.save(e); err != nil {
		return err
	}
	removeTemps(abs)
	uid, gid := e.UID, e.GID
	if !e.Existed {
		uid, gid = -1, -1
	}
	if err := atomicWrite(abs, data, e.Mode, uid, gid); err != nil {
		return err
	}
	e.Wrote, e.WroteSHA256, e.NextSHA256 = data, e.NextSHA256, ""
	return j.save(e)
}

// Restore puts back every journalled file exactly as it was (bytes, mode,
// owner; a file that did not exist is removed) and clears its entry. A file
// someone else changed since the lab wrote it is left alone and reported as
// a *ConflictError (its entry is kept). PostgreSQL entries need a
// connection and are left for RestorePGSettings.
func (j *Journal) Restore() ([]Entry, error) {
	unlock, err := j.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	var done []Entry
	var errs []error
	for _, p := range j.Pending() {
		if p.Kind == "corrupt" {
			errs = append(errs, fmt.Errorf("journal entry %s is unreadable: restore by hand, then delete it", p.Path))
			continue
		}
		if p.Kind != EntryFile {
			continue
		}
		e := p
		if err := j.restoreFile(&e); err != nil {
			errs = append(errs, err)
			continue
		}
		done = append(done, e)
	}
	return done, errors.Join(errs...)
}

func (j *Journal) restoreFile(e *Entry) error {
	cur, err := readState(e.Path)
	if err != nil {
		return err
	}
	if !e.known(cur) {
		return e.conflict(cur)
	}
	removeTemps(e.Path)
	switch {
	case !e.Existed && !cur.missing:
		if err := os.Remove(e.Path); err != nil {
			return fmt.Errorf("restore %s: %w", e.Path, err)
		}
		if err := syncDir(filepath.Dir(e.Path)); err != nil {
			return err
		}
	case e.Existed && (hashOf(cur.data) != e.OriginalSHA256 || cur.mode != e.Mode || cur.uid != e.UID || cur.gid != e.GID):
		if err := atomicWrite(e.Path, e.Original, e.Mode, e.UID, e.GID); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	return j.drop(e)
}
