package matrix

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// File is the matrix's record, from which Load re-renders it.
const File = "matrix.json"

// IsDir reports whether dir holds a matrix (matrix.json, no run.json).
func IsDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, record.File)); err == nil {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, File))
	return err == nil
}

// Load reads dir/matrix.json and each host's run.json, found through
// its result directory relative to dir (report_dir), else as recorded
// (dir); each host's verdicts are computed again at alpha (0: the
// experiment's), and the hosts compared (Compare). A host whose directory was recorded but cannot be read is
// an error naming the host and the path.
func Load(dir string, alpha float64) (*Matrix, error) {
	path := filepath.Join(dir, File)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load matrix: %w", err)
	}
	// The hosts' verdicts are not read back: they are computed again.
	var mj struct {
		matrixJSON
		Hosts []struct {
			matrixHostJSON
			Verdicts json.RawMessage `json:"verdicts"`
		} `json:"hosts"`
	}
	if err := json.Unmarshal(b, &mj); err != nil {
		return nil, fmt.Errorf("load matrix: %s: %w", path, err)
	}
	started, err := time.Parse("2006-01-02T15:04:05Z", mj.Started)
	if err != nil {
		return nil, fmt.Errorf("load matrix: %s: started %q: want 2006-01-02T15:04:05Z", path, mj.Started)
	}
	m := &Matrix{Experiment: mj.Experiment, Title: mj.Title, Started: started, Concurrent: mj.Concurrent, Schedule: mj.Schedule}
	for i, hj := range mj.Hosts {
		h := Host{Label: hj.Label, URL: hj.URL, Error: hj.Error, Generator: hj.Generator}
		var tried []string
		if hj.ReportDir != "" && !filepath.IsAbs(hj.ReportDir) {
			tried = append(tried, filepath.Join(dir, filepath.FromSlash(hj.ReportDir)))
		}
		if hj.Dir != "" {
			tried = append(tried, hj.Dir)
		}
		var firstErr error
		for _, d := range tried {
			run, err := record.ReadDir(d)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			h.Dir, h.Run, h.Verdicts = d, run, stats.Compare(run, alpha)
			break
		}
		if h.Run == nil && firstErr != nil {
			return nil, fmt.Errorf("load matrix: %s: host %d (%s): %w", path, i+1, hj.Label, firstErr)
		}
		m.Hosts = append(m.Hosts, h)
	}
	m.Compare()
	return m, nil
}
