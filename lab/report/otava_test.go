package report_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// realRun is a run.json `lab run` wrote on the real PostgREST (an
// efficiency run, two variants, one scenario).
const realRun = "../record/testdata/run-efficiency-real.json"

func readRealRun(t *testing.T) *lab.Run {
	t.Helper()
	run, err := record.Read(realRun)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// otavaSeries is what Otava's CSV importer makes of a file: the time
// column (Unix seconds), the attributes as strings, the metrics as floats.
type otavaSeries struct {
	time       []int64
	attributes map[string][]string
	data       map[string][]float64
}

// otavaLoad reads a CSV file the way Apache Otava's CsvImporter.fetch_data
// does (otava/importer.py, github.com/apache/otava), for the test
// configuration its docs/CSV.md shows:
//
//	tests:
//	  local.sample:
//	    type: csv
//	    file: tests/local_sample.csv
//	    time_column: time
//	    attributes: [commit]
//	    metrics: [metric1, metric2]
//
// The importer's steps, quoted:
//
//	reader = csv.reader(csv_file, delimiter=..., quotechar=...)   (defaults "," and '"')
//	headers: List[str] = next(reader, None)
//	time_index: int = headers.index(test_conf.time_column)
//	attr_indexes: List[int] = [headers.index(c) for c in test_conf.attributes]
//	metric_indexes: List[int] = [headers.index(c) for c in metric_columns]
//	    except ValueError as err: raise DataImportError(f"Column not found {err.args[0]}")
//	for row in reader:
//	    self.check_row_len(headers, row)           "Number of values in the row does not match ..."
//	    ts: datetime = self.__convert_time(row[time_index])    dateparser.parse(...)
//	    time.append(int(ts.timestamp()))
//	    data[name].append(float(row[i]))           "Could not convert value in column ..."
//	    attributes[headers[i]].append(row[i])      "Attributes are just copied as-is"
//
// and, for a "branch" column: "CSV file contains data from multiple
// branches" unless --branch selects one. dateparser accepts far more than
// RFC 3339; here the time must be RFC 3339, the format lab writes.
func otavaLoad(data []byte, attributes, metrics []string) (*otavaSeries, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no header")
	}
	headers := rows[0]
	index := func(c string) (int, error) {
		i := slices.Index(headers, c)
		if i < 0 {
			return 0, fmt.Errorf("Column not found %s", c)
		}
		return i, nil
	}
	ti, err := index("time")
	if err != nil {
		return nil, err
	}
	if slices.Contains(headers, "branch") {
		return nil, fmt.Errorf("a branch column: Otava refuses several branches in one file without --branch")
	}
	s := &otavaSeries{attributes: map[string][]string{}, data: map[string][]float64{}}
	for _, row := range rows[1:] {
		if len(row) < len(headers) {
			return nil, fmt.Errorf("Number of values in the row does not match number of columns in the table header: %v", row)
		}
		ts, err := time.Parse(time.RFC3339, row[ti])
		if err != nil {
			return nil, fmt.Errorf("Invalid datetime value: %s", row[ti])
		}
		s.time = append(s.time, ts.Unix())
		for _, a := range attributes {
			i, err := index(a)
			if err != nil {
				return nil, err
			}
			s.attributes[a] = append(s.attributes[a], row[i])
		}
		for _, m := range metrics {
			i, err := index(m)
			if err != nil {
				return nil, err
			}
			v, err := strconv.ParseFloat(row[i], 64) // what Python's float() accepts of it
			if err != nil {
				return nil, fmt.Errorf("Could not convert value in column %s: %q", m, row[i])
			}
			s.data[m] = append(s.data[m], v)
		}
	}
	return s, nil
}

// metricColumns are the header's columns after the attributes.
func metricColumns(t *testing.T, data []byte) []string {
	t.Helper()
	header, err := csv.NewReader(bytes.NewReader(data)).Read()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(header[:len(report.OtavaAttributes)], report.OtavaAttributes) {
		t.Fatalf("header starts %v, want %v", header, report.OtavaAttributes)
	}
	return header[len(report.OtavaAttributes):]
}

func otava(t *testing.T, runs ...*lab.Run) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.Otava(&b, runs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestOtavaGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		run  *lab.Run
	}{{"otava.csv.golden", fixtureRun("closed")}, {"otava-real.csv.golden", readRealRun(t)}} {
		got := otava(t, c.run)
		golden(t, c.name, got)
		cols := metricColumns(t, got)
		s, err := otavaLoad(got, report.OtavaAttributes[1:], cols)
		if err != nil {
			t.Fatalf("%s: Otava's importer would fail: %v\n%s", c.name, err, got)
		}
		if len(s.time) != 1 || s.time[0] != c.run.Started.Unix() {
			t.Errorf("%s: time %v, want the run's start %v", c.name, s.time, c.run.Started.Unix())
		}
		// Every column is the median of its scenario, variant and metric.
		for _, sc := range stats.ScenarioNames(c.run) {
			for _, vn := range stats.VariantNames(c.run) {
				rate, _ := lab.MetricByName("rate")
				var vs []float64
				for _, tr := range stats.TrialsOf(c.run, vn, sc) {
					if v, ok := rate.Of(tr); ok && tr.Error == "" {
						vs = append(vs, v)
					}
				}
				want, _ := stats.Summarize(vs)
				col := report.OtavaColumn(sc, vn, "throughput")
				if got := s.data[col]; len(got) != 1 || got[0] != want.Median {
					t.Errorf("%s: %s = %v, want the median %v", c.name, col, got, want.Median)
				}
			}
		}
	}
	// The real run, recorded before lab.Build: the version its --version
	// gave stands for the commit it does not know; the efficiency run
	// measured CPU per request.
	got := string(otava(t, readRealRun(t)))
	for _, want := range []string{",13.0.8,13.0.8,vm,efficiency-tiny,,", "GETSingle.tcp.cpu", "GETSingle.unix.p99"} {
		if !strings.Contains(got, want) {
			t.Errorf("real run's CSV lacks %q:\n%s", want, got)
		}
	}
}

// historyRuns are n daily runs of one experiment; from run `from` on the
// target's throughput drops by drop (a regression Otava should find).
func historyRuns(n, from int, drop float64) []*lab.Run {
	var runs []*lab.Run
	for i := range n {
		rate := 2400.0
		if i >= from {
			rate *= 1 - drop
		}
		run := statstest.Run(statstest.Spec{Experiment: "nightly", Scenarios: []string{"GETSingle", "GETAll"}, Trials: 6, Noise: 0.01, Seed: uint64(i + 1),
			Variants: []statstest.Variant{{Name: "target", Baseline: true, Rate: rate, P50Ms: 4 * 2400 / rate, ServerUs: 450, DBUs: 330}}})
		run.Started = run.Started.AddDate(0, 0, i)
		run.Target.Version = fmt.Sprintf("PostgREST 13.0.%d", i)
		run.ExperimentHash = "5e1f"
		runs = append(runs, run)
	}
	return runs
}

// TestOtavaHistory: several runs make one row each, oldest first whatever
// the order given, under one header holding every column any run has.
func TestOtavaHistory(t *testing.T) {
	runs := historyRuns(10, 5, 0.10)
	shuffled := slices.Clone(runs)
	slices.Reverse(shuffled)
	// The last run did not measure CPU: its cells are empty, as Otava's
	// importer cannot read them (float("") fails): a config leaves such a
	// column out.
	last := shuffled[0]
	for i := range last.Trials {
		last.Trials[i].Server.CPUSeconds, last.Trials[i].Database.CPUSeconds = 0, 0
	}
	// The commit: the baseline's lab.Build, else what its --version gave
	// (a development build's "(a1b2c3d)"), else the version.
	runs[8].Variants[0].Build = lab.Build{Version: "13.0.8", Commit: "0123456789abcdef0123456789abcdef01234567", Ref: "main"}
	runs[7].Target.Version = "PostgREST 13.0.7 (a1b2c3d)"
	got := otava(t, shuffled...)
	golden(t, "otava-history.csv.golden", got)
	cols := metricColumns(t, got)
	want := []string{"GETSingle.target.throughput", "GETSingle.target.p99", "GETSingle.target.cpu",
		"GETAll.target.throughput", "GETAll.target.p99", "GETAll.target.cpu"}
	if !slices.Equal(cols, want) {
		t.Fatalf("columns %v, want %v", cols, want)
	}
	s, err := otavaLoad(got, []string{"commit"}, []string{"GETSingle.target.throughput", "GETAll.target.p99"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(s.time) || len(s.time) != 10 {
		t.Errorf("times %v: want 10, oldest first", s.time)
	}
	if c := s.attributes["commit"]; c[0] != "13.0.0" || c[7] != "a1b2c3d" || c[8] != "0123456789abcdef0123456789abcdef01234567" || c[9] != "13.0.9" {
		t.Errorf("commit column %v", c)
	}
	if r := s.data["GETSingle.target.throughput"]; r[4] < 2300 || r[5] > 2200 {
		t.Errorf("throughput %v: want the drop at the sixth run", r)
	}
	if _, err := otavaLoad(got, nil, []string{"GETSingle.target.cpu"}); err == nil || !strings.Contains(err.Error(), "Could not convert") {
		t.Errorf("a column with an empty cell: got %v, want Otava's conversion error", err)
	}
}

func TestOtavaErrors(t *testing.T) {
	var b bytes.Buffer
	if err := report.Otava(&b, nil); err == nil {
		t.Error("no runs: want an error")
	}
	a, c := historyRuns(1, 1, 0)[0], fixtureRun("closed")
	if err := report.Otava(&b, []*lab.Run{a, c}); err == nil || !strings.Contains(err.Error(), "2 experiments (nightly, socket-vs-tcp)") {
		t.Errorf("two experiments: got %v", err)
	}
	a.Started = time.Time{}
	if err := report.Otava(&b, []*lab.Run{a}); err == nil || !strings.Contains(err.Error(), "no start time") {
		t.Errorf("no start time: got %v", err)
	}
}

// TestFindRuns: a result directory is one run, a tree is searched, a
// broken run.json is skipped and reported.
func TestFindRuns(t *testing.T) {
	root := t.TempDir()
	runs := historyRuns(3, 3, 0)
	for i, r := range runs {
		if err := record.Write(filepath.Join(root, "nightly", fmt.Sprintf("2026120%d-0900", i)), r); err != nil {
			t.Fatal(err)
		}
	}
	broken := filepath.Join(root, "nightly", "broken")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, record.File), []byte("{"), 0o644)

	got, errs, err := report.FindRuns(root)
	if err != nil || len(got) != 3 || len(errs) != 1 {
		t.Fatalf("tree: %d runs, errs %v, err %v; want 3 runs and the broken one reported", len(got), errs, err)
	}
	got, errs, err = report.FindRuns(filepath.Join(root, "nightly", "20261201-0900"), filepath.Join(root, "nightly", "20261200-0900"))
	if err != nil || len(got) != 2 || len(errs) != 0 || got[0].Target.Version != "PostgREST 13.0.1" {
		t.Fatalf("two result directories: %d runs, errs %v, err %v", len(got), errs, err)
	}
	if _, _, err := report.FindRuns(filepath.Join(root, "nope")); err == nil {
		t.Error("a missing path: want an error")
	}
}
