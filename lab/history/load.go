package history

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// LoadDir loads every run of an experiment under
// resultsDir/<experiment>/<run>/run.json, each with the directory's name
// as ID and the directory as Ref, oldest first. Directories whose
// run.json is missing or unreadable are skipped and reported in errs.
func LoadDir(resultsDir, experiment string) (runs []Run, errs []error) {
	root := filepath.Join(resultsDir, experiment)
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, []error{fmt.Errorf("history: %w", err)}
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		run, err := record.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		runs = append(runs, Run{ID: e.Name(), Ref: dir, Run: run})
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Run.Started.Before(runs[j].Run.Started) })
	return runs, errs
}
