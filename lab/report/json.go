package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// JSON writes the verdicts as indented JSON (verdicts.json). Given the
// run, it adds "binaries": the executables the variants ran, with their
// --version (when any variant set one).
func JSON(w io.Writer, v *stats.Verdicts, run ...*lab.Run) error {
	var out any = v
	if len(run) > 0 && run[0] != nil {
		type binary struct {
			Variant string `json:"variant"`
			Binary  string `json:"binary"`
			Version string `json:"version"`
		}
		var bins []binary
		for _, vi := range run[0].Variants {
			if vi.Binary != "" {
				bins = append(bins, binary{vi.Name, vi.Binary, vi.Version})
			}
		}
		if len(bins) > 0 {
			raw, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("verdicts json: %w", err)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				return fmt.Errorf("verdicts json: %w", err)
			}
			m["binaries"] = bins
			out = m
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("verdicts json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
