package calibration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Write writes calibration.json, calibration.md and
// calibration.html to dir.
func Write(dir string, res *calibrate.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("calibration report: %w", err)
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("calibration report: %w", err)
	}
	if err := format.WriteFile(filepath.Join(dir, calibrate.File), b); err != nil {
		return err
	}
	var md, page bytes.Buffer
	if err := Markdown(&md, res); err != nil {
		return err
	}
	if err := HTML(&page, res); err != nil {
		return fmt.Errorf("calibration report: %w", err)
	}
	if err := format.WriteFile(filepath.Join(dir, "calibration.md"), md.Bytes()); err != nil {
		return err
	}
	return format.WriteFile(filepath.Join(dir, "calibration.html"), page.Bytes())
}
