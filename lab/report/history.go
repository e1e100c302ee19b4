package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// LoadHistory loads every run of an experiment under
// resultsDir/<experiment>/<timestamp>/run.json, oldest first. Directories
// whose run.json is missing or unreadable are skipped and reported in errs.
func LoadHistory(resultsDir, experiment string) (runs []Compared, errs []error) {
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
		runs = append(runs, Compared{Label: e.Name(), Dir: dir, Run: run})
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Run.Started.Before(runs[j].Run.Started) })
	return runs, errs
}

// DefaultMinChange is the change, in percent, below which History does not
// flag a significant change as a regression or improvement: runs on
// different days drift by a few percent (see the notes on this machine).
const DefaultMinChange = 2.0

// History writes, per scenario and variant, one line per run: median
// throughput and p99 with their intervals, and the change against the
// previous run ("~" when not significant). A change that is significant
// and at least minChange percent (of throughput or p99) is flagged as a
// regression or an improvement.
func History(w io.Writer, experiment string, runs []Compared, alpha, minChange float64) {
	fmt.Fprintf(w, "History of %s: %d run(s); medians ±95%% CI; change vs the previous run, \"~\" when not significant (alpha %g);\n"+
		"flagged when significant and at least %g%%\n", experiment, len(runs), stats.AlphaFor(nil, alpha), minChange)
	type key struct{ sc, variant string }
	var keys []key
	seen := map[key]bool{}
	for _, c := range runs {
		for _, sc := range stats.ScenarioNames(c.Run) {
			for _, vn := range stats.VariantNames(c.Run) {
				k := key{sc, vn}
				if !seen[k] && len(stats.TrialsOf(c.Run, vn, sc)) > 0 {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
	}
	rate, _ := lab.MetricByName("rate")
	p99, _ := lab.MetricByName("p99")
	for _, k := range keys {
		fmt.Fprintf(w, "\n%s / %s\n", k.sc, k.variant)
		var buf bytes.Buffer
		tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  run\tstarted\ttarget\tn\treq/s\tΔ req/s\tp99 ms\tΔ p99\t\n")
		var prev *lab.Run
		for _, c := range runs {
			trials := stats.TrialsOf(c.Run, k.variant, k.sc)
			if len(trials) == 0 {
				continue
			}
			rs, _ := stats.Summarize(valuesOf(trials, rate))
			ps, _ := stats.Summarize(valuesOf(trials, p99))
			dRate, dP99, flag := "–", "–", ""
			if prev != nil {
				v := stats.CompareRuns(prev, c.Run, "prev", "this", alpha)
				for _, r := range v.Rows {
					if r.Scenario != k.sc || r.VariantName != k.variant+" (this)" {
						continue
					}
					switch r.Metric.Name {
					case "rate":
						dRate = r.Delta()
					case "p99":
						dP99 = r.Delta()
					default:
						continue
					}
					if math.Abs(r.DeltaPct) < minChange {
						continue
					}
					if r.Outcome == stats.Worse {
						flag = "regression"
					} else if r.Outcome == stats.Better && flag == "" {
						flag = "improvement"
					}
				}
			}
			version := c.Run.Target.Version
			if version == "" {
				version = filepath.Base(c.Run.Target.Binary)
			}
			if c.Run.Target.Reference {
				version += " (reference)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", c.Label, c.Run.Started.UTC().Format("2006-01-02 15:04"), version,
				rs.N, summary(rs), dRate, summary(ps), dP99, flag)
			prev = c.Run
		}
		tw.Flush()
		writeTrimmed(w, buf.String())
	}
}

// valuesOf returns a metric's values over valid trials.
func valuesOf(trials []lab.Trial, m lab.Metric) []float64 {
	var vs []float64
	for _, t := range trials {
		if t.Error != "" {
			continue
		}
		if v, ok := m.Of(t); ok {
			vs = append(vs, v)
		}
	}
	return vs
}
