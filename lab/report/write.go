package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/report/profile"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Files written by WriteAll, in order.
var Files = []string{"report.md", "report.html", "verdicts.json", "results.bench", "trials.csv", "telemetry.csv"}

// WriteAll writes report.md, report.html, verdicts.json, results.bench,
// trials.csv and telemetry.csv into dir (run.json is the runner's), and
// with profiles or statements profile.json, flame-<variant>.svg and
// profile-<variant>.pb.gz (see profile.Write). Each
// file is written to a temporary name and renamed, so a reader never sees
// half a report.
func WriteAll(dir string, run *lab.Run, v *stats.Verdicts) error {
	writers := map[string]func(io.Writer) error{
		"report.md":     func(w io.Writer) error { return Markdown(w, run, v) },
		"report.html":   func(w io.Writer) error { return HTML(w, run, v) },
		"verdicts.json": func(w io.Writer) error { return JSON(w, v, run) },
		"results.bench": func(w io.Writer) error { return Bench(w, run) },
		"trials.csv":    func(w io.Writer) error { return TrialsCSV(w, run) },
		"telemetry.csv": func(w io.Writer) error { return TelemetryCSV(w, run) },
	}
	for _, name := range Files {
		var b bytes.Buffer
		if err := writers[name](&b); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		if err := format.WriteFile(filepath.Join(dir, name), b.Bytes()); err != nil {
			return err
		}
	}
	return profile.Write(dir, run)
}
