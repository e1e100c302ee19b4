package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// JSON writes the verdicts as indented JSON (verdicts.json).
func JSON(w io.Writer, v *stats.Verdicts) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("verdicts json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
