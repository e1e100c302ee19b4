// Package record reads and writes run.json, the record of one `lab run`,
// through explicit, versioned types (RunV1 and its parts), so that the
// file's shape does not follow the Go names of package lab: run.json files
// written by earlier labs keep loading.
package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// File is the name of the run record in a result directory.
const File = "run.json"

// Marshal encodes run as run.json holds it (indented, as `lab run` has
// always written it).
func Marshal(run *lab.Run) ([]byte, error) {
	return json.MarshalIndent(FromRun(run), "", "  ")
}

// Write writes run as dir/run.json (dir is made if missing), atomically:
// a reader never sees half a record.
func Write(dir string, run *lab.Run) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	b, err := Marshal(run)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, File), b, atomicfile.Options{}); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// ReadDir reads the run record of the result directory dir (dir/run.json).
func ReadDir(dir string) (*lab.Run, error) { return Read(filepath.Join(dir, File)) }

// Read reads a run record (a run.json). A record of a newer schema than
// this lab's is refused rather than half read.
func Read(path string) (*lab.Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load run: %w", err)
	}
	var r RunV1
	if err := json.Unmarshal(b, &r); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, fmt.Errorf("load run: %s: at byte %d: %w", path, se.Offset, err)
		}
		return nil, fmt.Errorf("load run: %s: %w", path, err)
	}
	if r.Schema > lab.RecordSchema {
		return nil, fmt.Errorf("load run: %s: schema %d is newer than this lab's %d: upgrade the lab", path, r.Schema, lab.RecordSchema)
	}
	return r.Run(), nil
}
