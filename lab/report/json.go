package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// JSON writes the verdicts as indented JSON (verdicts.json, the record
// type record.VerdictsV1). Given the run, it adds "binaries": the
// executables the variants ran, with their --version (when any variant set
// one).
func JSON(w io.Writer, v *stats.Verdicts, run ...*lab.Run) error {
	var r *lab.Run
	if len(run) > 0 {
		r = run[0]
	}
	var out any = VerdictsRecord(v, r)
	if rec := out.(record.VerdictsV1); len(rec.Binaries) > 0 {
		// verdicts.json with binaries has always been written with the
		// keys of every object but the binaries in alphabetical order (it
		// went through a map): keep its bytes.
		bins := rec.Binaries
		rec.Binaries = nil
		raw, err := json.Marshal(rec)
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
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("verdicts json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
