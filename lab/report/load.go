package report

import (
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// RunFile is the name of the run record in a result directory.
const RunFile = record.File

// Load reads the run record of the result directory dir (dir/run.json).
func Load(dir string) (*lab.Run, error) { return record.Read(filepath.Join(dir, RunFile)) }
