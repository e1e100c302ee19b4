package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// writeRunJSON writes run.json into dir (made if missing).
func writeRunJSON(dir string, run *lab.Run) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	b, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "run.json"), b, atomicfile.Options{Mode: 0o644}); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}
