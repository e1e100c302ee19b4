package lab

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// DataNeeds is the data beyond Chinook that an experiment reads, which
// only `lab fixture chinook`'s flags make: derived from the experiment,
// so that no file has to declare it (and none can forget to).
type DataNeeds struct {
	// Tables are the generated schemas' sizes the variants expose
	// (db-schemas naming gen<N>: --tables N).
	Tables []int
	// Loadtest: a variant exposes PostgREST's load-test schema, test
	// (--postgrest-loadtest).
	Loadtest bool
	// Rows is the most rows a scenario asks of big_rows (its limit=N;
	// --rows N), 0 when none reads it.
	Rows int64
}

// loadtestSchema and rowsTable are internal/fixture's LoadtestSchema and
// RowsTable (a test holds them equal).
const (
	loadtestSchema = "test"
	rowsTable      = "big_rows"
)

// Needs derives the experiment's DataNeeds from its variants' db-schemas
// and its scenarios' paths.
func (e *Experiment) Needs() DataNeeds {
	var n DataNeeds
	for _, v := range e.Variants {
		for _, key := range []string{"db-schemas", "db-schema"} {
			for s := range strings.SplitSeq(v.PostgREST[key], ",") {
				s = strings.Trim(strings.TrimSpace(s), `"`)
				if k, ok := strings.CutPrefix(s, "gen"); ok {
					if t, err := strconv.Atoi(k); err == nil && t > 0 && !slices.Contains(n.Tables, t) {
						n.Tables = append(n.Tables, t)
					}
				}
				n.Loadtest = n.Loadtest || s == loadtestSchema
			}
		}
	}
	for _, sc := range e.Custom {
		path, query, _ := strings.Cut(sc.Path, "?")
		if strings.TrimPrefix(path, "/") != rowsTable {
			continue
		}
		rows := int64(1)
		if q, err := url.ParseQuery(query); err == nil {
			if l, err := strconv.ParseInt(q.Get("limit"), 10, 64); err == nil && l > 0 {
				rows = l
			}
		}
		n.Rows = max(n.Rows, rows)
	}
	slices.Sort(n.Tables)
	return n
}

// Missing is what of n the data set d lacks (the empty DataNeeds when
// nothing).
func (n DataNeeds) Missing(d Dataset) DataNeeds {
	var m DataNeeds
	for _, t := range n.Tables {
		if got, ok := d.Schemas["gen"+strconv.Itoa(t)]; !ok || got < t {
			m.Tables = append(m.Tables, t)
		}
	}
	if _, ok := d.Schemas[loadtestSchema]; n.Loadtest && !ok {
		m.Loadtest = true
	}
	if n.Rows > 0 && d.Rows[rowsTable] < n.Rows {
		m.Rows = n.Rows
	}
	return m
}

// None says nothing is needed.
func (n DataNeeds) None() bool { return len(n.Tables) == 0 && !n.Loadtest && n.Rows == 0 }

// MissingDataError refuses a run before its first trial: the data set
// lacks what the experiment reads (a minute per trial of 503 "not ready",
// then "no valid trial", otherwise). Its message names the command that
// makes the data.
type MissingDataError struct {
	Experiment string
	Missing    DataNeeds
	// Command is `lab fixture chinook` as this stack takes it (its --dir)
	// with the flags that keep what the database has beside what is
	// missing (FixtureFlags).
	Command string
}

func (e *MissingDataError) Error() string {
	var what []string
	if t := e.Missing.Tables; len(t) > 0 {
		what = append(what, andList(t)+" extra tables")
	}
	if e.Missing.Loadtest {
		what = append(what, "PostgREST's load-test schema "+loadtestSchema)
	}
	if e.Missing.Rows > 0 {
		what = append(what, fmt.Sprintf("%s of %d rows", rowsTable, e.Missing.Rows))
	}
	return fmt.Sprintf("%s needs %s: run %s (it rebuilds the database; then run again)", e.Experiment, strings.Join(what, " and "), e.Command)
}

// itoas are ns as decimal strings.
func itoas(ns []int) []string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return s
}

// andList is "1000", "1000 and 10000", "1, 2 and 3".
func andList(ns []int) string {
	s := itoas(ns)
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// FixtureFlags are `lab fixture chinook`'s flags that make missing and
// keep what d holds beyond Chinook (the fixture rebuilds the database):
// "--tables 1000,10000 --rows 1000000", with the generated set's --seed
// when it is not the default.
func FixtureFlags(missing DataNeeds, d Dataset) string {
	tables := slices.Clone(missing.Tables)
	for s, n := range d.Schemas {
		if k, ok := strings.CutPrefix(s, "gen"); ok && k == strconv.Itoa(n) && !slices.Contains(tables, n) {
			tables = append(tables, n)
		}
	}
	slices.Sort(tables)
	var f []string
	if d.Kind == DatasetGenerated && d.Seed != 1 {
		f = append(f, "--seed "+strconv.FormatUint(d.Seed, 10))
	}
	if len(tables) > 0 {
		f = append(f, "--tables "+strings.Join(itoas(tables), ","))
	}
	if rows := max(missing.Rows, d.Rows[rowsTable]); rows > 0 {
		f = append(f, "--rows "+strconv.FormatInt(rows, 10))
	}
	if _, ok := d.Schemas[loadtestSchema]; missing.Loadtest || ok {
		f = append(f, "--postgrest-loadtest")
	}
	return strings.Join(f, " ")
}

// FixtureCommander is a Server that knows how its database is loaded:
// `lab fixture chinook --dir DIR` for the lab's own stack. The runner puts
// it in a MissingDataError; without one it says `lab fixture chinook`.
type FixtureCommander interface {
	FixtureCommand() string
}

// checkNeeds refuses the run when the data set lacks what e reads.
func (r *Runner) checkNeeds(e *Experiment, d *Dataset) error {
	needs := e.Needs()
	if needs.None() {
		return nil
	}
	if d == nil {
		r.Progress.Note("the data set could not be read: not checked that the database holds what " + e.Name + " reads")
		return nil
	}
	missing := needs.Missing(*d)
	if missing.None() {
		return nil
	}
	cmd := "lab fixture chinook"
	if c, ok := r.Server.(FixtureCommander); ok && c.FixtureCommand() != "" {
		cmd = c.FixtureCommand()
	}
	return &MissingDataError{Experiment: e.Name, Missing: missing, Command: strings.TrimSpace(cmd + " " + FixtureFlags(missing, *d))}
}
