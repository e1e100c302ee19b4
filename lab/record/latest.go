package record

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// ErrNoRun is Latest's error when no run of the experiment is there.
var ErrNoRun = errors.New("no earlier run")

// Latest finds the newest run (by start time) of the named experiment
// under root: in root/<experiment> (how lab run lays out its results)
// when that exists, else anywhere under root. Runs whose run.json cannot
// be read are skipped. It returns ErrNoRun when there is none.
func Latest(root, experiment string) (string, *lab.Run, error) {
	where := filepath.Join(root, experiment)
	if _, err := os.Stat(where); err != nil {
		where = root
	}
	dirs, _, err := Dirs(where)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, ErrNoRun
	}
	if err != nil {
		return "", nil, err
	}
	var best string
	var bestRun *lab.Run
	for _, d := range dirs {
		run, err := ReadDir(d)
		if err != nil || run.Experiment.Name != experiment {
			continue
		}
		if bestRun == nil || run.Started.After(bestRun.Started) {
			best, bestRun = d, run
		}
	}
	if bestRun == nil {
		return "", nil, ErrNoRun
	}
	return best, bestRun, nil
}
