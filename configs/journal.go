package configs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Entry kinds.
const (
	EntryFile = "file"
	EntryPG   = "pg"
)

// Entry is one journalled change: for a file, its original bytes, mode and
// owner (or that it did not exist) and what the lab wrote; for PostgreSQL,
// the original ALTER SYSTEM state of each setting the lab changed.
type Entry struct {
	Kind           string      `json:"kind"`
	Path           string      `json:"path"` // absolute file path, or "postgresql:<data directory>"
	Existed        bool        `json:"existed"`
	Mode           os.FileMode `json:"mode"`
	UID            int         `json:"uid"`
	GID            int         `json:"gid"`
	Original       []byte      `json:"original"`
	OriginalSHA256 string      `json:"original_sha256"`
	Wrote          []byte      `json:"wrote,omitempty"`
	WroteSHA256    string      `json:"wrote_sha256,omitempty"`
	NextSHA256     string      `json:"next_sha256,omitempty"` // being written when the run stopped
	PG             []PGChange  `json:"pg,omitempty"`
	Started        time.Time   `json:"started"`
	PID            int         `json:"pid"`
}

func (e Entry) String() string {
	if e.Kind == EntryPG {
		names := make([]string, len(e.PG))
		for i, c := range e.PG {
			names[i] = c.Name
		}
		return fmt.Sprintf("%s: settings %s changed by pid %d at %s", e.Path, strings.Join(names, ", "), e.PID, e.Started.Format(time.RFC3339))
	}
	return fmt.Sprintf("%s: rewritten by pid %d at %s", e.Path, e.PID, e.Started.Format(time.RFC3339))
}

// Journal records original configs in the lab's state directory before
// the lab changes them, so they can always be put back, also after a crash.
type Journal struct {
	dir string
	mu  sync.Mutex
}

// OpenJournal opens (creating) the journal in stateDir/journal.
func OpenJournal(stateDir string) (*Journal, error) {
	dir := filepath.Join(stateDir, "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	if err := syncDir(stateDir); err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	return &Journal{dir: dir}, nil
}

// Dir is where the journal keeps its entries.
func (j *Journal) Dir() string { return j.dir }

// lock serialises journal operations within and across processes.
func (j *Journal) lock() (func(), error) {
	j.mu.Lock()
	f, err := os.OpenFile(filepath.Join(j.dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		j.mu.Unlock()
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		j.mu.Unlock()
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	return func() { f.Close(); j.mu.Unlock() }, nil
}

func entryID(kind, path string) string {
	h := sha256.Sum256([]byte(kind + ":" + path))
	return hex.EncodeToString(h[:12])
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (j *Journal) entryFile(kind, path string) string {
	return filepath.Join(j.dir, entryID(kind, path)+".json")
}

func (j *Journal) load(kind, path string) (*Entry, error) {
	return readEntry(j.entryFile(kind, path))
}

func readEntry(file string) (*Entry, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read journal entry: %w", err)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("journal entry %s is corrupt: %w", file, err)
	}
	if hashOf(e.Original) != e.OriginalSHA256 {
		return nil, fmt.Errorf("journal entry %s for %s: original bytes do not match their hash", file, e.Path)
	}
	return &e, nil
}

// save writes an entry durably (temp file, fsync, rename, fsync dir).
func (j *Journal) save(e *Entry) error {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicWrite(j.entryFile(e.Kind, e.Path), b, 0o600, -1, -1); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

func (j *Journal) drop(e *Entry) error {
	if err := os.Remove(j.entryFile(e.Kind, e.Path)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("journal: clear entry for %s: %w", e.Path, err)
	}
	return syncDir(j.dir)
}

// Pending lists the changes not yet restored, oldest first: after a run
// was killed, these are what the next start must put back. An unreadable
// entry is listed with Kind "corrupt" and its file as Path.
func (j *Journal) Pending() []Entry {
	files, _ := filepath.Glob(filepath.Join(j.dir, "*.json"))
	var out []Entry
	for _, f := range files {
		e, err := readEntry(f)
		switch {
		case err != nil:
			out = append(out, Entry{Kind: "corrupt", Path: f})
		case e != nil:
			out = append(out, *e)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Started.Before(out[b].Started) })
	return out
}

// Forget drops the journal entry for a file without restoring it, once a
// conflict has been resolved by hand.
func (j *Journal) Forget(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	unlock, err := j.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return j.drop(&Entry{Kind: EntryFile, Path: abs})
}
