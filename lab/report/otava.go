package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// exportMetric is one of the metrics the exports for other tools (Otava,
// Bencher) carry per scenario and variant: the trials' median.
type exportMetric struct {
	metric string  // lab.Metric name
	otava  string  // the last part of an Otava column name
	bmf    string  // the Bencher measure slug
	scale  float64 // from the metric's unit to the export's
}

// exportMetrics: throughput (req/s), latency p99 (ms in Otava's CSV, ns in
// Bencher's built-in latency measure) and CPU per request, server +
// database (µs/req).
var exportMetrics = []exportMetric{
	{"rate", "throughput", "throughput", 1},
	{"p99", "p99", "latency", 1e6},
	{"cpu", "cpu", "cpu-per-request", 1},
}

// exportSummary is the median of metric h over the valid trials of one
// variant in one scenario, with its 95 % interval; ok is false when no
// trial has a finite value.
func exportSummary(run *lab.Run, variant, scenario string, h exportMetric) (s stats.Summary, ok bool) {
	m, found := lab.MetricByName(h.metric)
	if !found {
		return s, false
	}
	var vs []float64
	for _, t := range stats.TrialsOf(run, variant, scenario) {
		if t.Error != "" {
			continue
		}
		if v, ok := m.Of(t); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return s, false
	}
	s, _ = stats.Summarize(vs)
	return s, !math.IsNaN(s.Median) && !math.IsInf(s.Median, 0)
}

// OtavaAttributes are the columns of an Otava CSV before the metrics:
// the time column and the attributes Otava's `attributes:` may list.
var OtavaAttributes = []string{"time", "commit", "version", "host", "experiment", "experiment_hash"}

// Otava writes the runs of one experiment as a CSV file Apache Otava's
// CSV importer reads (docs/CSV.md in github.com/apache/otava): a header,
// then one row per run, oldest first, with
//
//   - time: when the run started, RFC 3339 in UTC (Otava parses it with
//     dateparser and keeps whole seconds);
//   - commit: the measured build's commit (the baseline variant's
//     lab.Build), else its version; version, host, experiment and
//     experiment_hash (run.json's, empty in older records): attributes;
//   - one column per scenario, variant and exportMetric metric, named
//     "<scenario>.<variant>.<metric>": throughput (req/s, higher is better),
//     p99 (ms) and cpu (server + database µs per request), the medians
//     of the run's valid trials.
//
// A cell is empty when a run lacks that metric: Otava's importer converts
// every selected metric cell with float(), so a test's `metrics:` should
// list columns every row has. The runs must be of one experiment: one
// file is one Otava test.
func Otava(w io.Writer, runs []*lab.Run) error {
	if len(runs) == 0 {
		return errors.New("otava: no runs")
	}
	var exps []string
	for _, r := range runs {
		if r.Started.IsZero() {
			return fmt.Errorf("otava: a run of %s has no start time", r.Experiment.Name)
		}
		if !slices.Contains(exps, r.Experiment.Name) {
			exps = append(exps, r.Experiment.Name)
		}
	}
	if len(exps) > 1 {
		return fmt.Errorf("otava: the runs are of %d experiments (%s); one CSV file is one Otava test: give the runs of one experiment (results/<experiment>)",
			len(exps), strings.Join(exps, ", "))
	}
	runs = append([]*lab.Run(nil), runs...)
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Started.Before(runs[j].Started) })

	type key struct {
		scenario, variant string
		h                 int
	}
	var cols []key
	seen := map[key]bool{}
	cells := make([]map[key]string, len(runs))
	for i, r := range runs {
		cells[i] = map[key]string{}
		for _, sc := range stats.ScenarioNames(r) {
			for _, vn := range stats.VariantNames(r) {
				for hi, h := range exportMetrics {
					s, ok := exportSummary(r, vn, sc, h)
					if !ok {
						continue
					}
					k := key{sc, vn, hi}
					cells[i][k] = f(s.Median)
					if !seen[k] {
						seen[k] = true
						cols = append(cols, k)
					}
				}
			}
		}
	}

	cw := csv.NewWriter(w)
	header := append([]string(nil), OtavaAttributes...)
	for _, k := range cols {
		header = append(header, OtavaColumn(k.scenario, k.variant, exportMetrics[k.h].otava))
	}
	cw.Write(header)
	for i, r := range runs {
		b := lab.MeasuredBuild(r, stats.BaselineName(r))
		commit := b.Commit
		if commit == "" {
			commit = b.Version
		}
		row := []string{r.Started.UTC().Format(time.RFC3339), commit, b.Version, r.Host.Hostname, r.Experiment.Name, r.ExperimentHash}
		for _, k := range cols {
			row = append(row, cells[i][k])
		}
		cw.Write(row)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("otava: %w", err)
	}
	return nil
}

// OtavaColumn is the name of a metric column: "GETSingle.tcp.throughput".
func OtavaColumn(scenario, variant, metric string) string {
	return scenario + "." + variant + "." + metric
}

// FindRuns reads the runs under paths: a path holding a run.json is one
// run; any other directory (a results tree, an experiment's directory, a
// matrix directory) is searched for run.json files (record.Dirs).
// Unreadable run.json files and directories are skipped and reported in
// errs; a path that does not exist is an error, returned alone.
func FindRuns(paths ...string) (runs []*lab.Run, errs []error, err error) {
	for _, p := range paths {
		dirs, unread, err := record.Dirs(p)
		if err != nil {
			return nil, nil, err
		}
		errs = append(errs, unread...)
		for _, d := range dirs {
			run, err := record.ReadDir(d)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			runs = append(runs, run)
		}
	}
	return runs, errs, nil
}
