package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// RunFile is the name of the run record in a result directory.
const RunFile = "run.json"

// Load reads dir/run.json.
func Load(dir string) (*lab.Run, error) {
	path := filepath.Join(dir, RunFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load run: %w", err)
	}
	var run lab.Run
	if err := json.Unmarshal(b, &run); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, fmt.Errorf("load run: %s: at byte %d: %w", path, se.Offset, err)
		}
		return nil, fmt.Errorf("load run: %s: %w", path, err)
	}
	if run.Schema > lab.RecordSchema {
		return nil, fmt.Errorf("load run: %s: schema %d is newer than this lab's %d: upgrade the lab", path, run.Schema, lab.RecordSchema)
	}
	return &run, nil
}
