package format

import "github.com/pgrst-lab/pgrst-lab/internal/atomicfile"

// WriteFile writes a report file (mode 0644) to a temporary name and
// renames it, so a reader never sees half a report.
func WriteFile(path string, data []byte) error {
	return atomicfile.Write(path, data, atomicfile.Options{Mode: 0o644})
}
