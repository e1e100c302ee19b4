package report

import (
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The descriptions of a run every report of it states, for the reports
// built on this package from several runs (the article, package post): one
// wording of each fact, whichever report states it.

// DatasetDesc says what the database held at the run's start ("" for
// records without it): "real Chinook (checksum …; artist 275, … rows)".
func DatasetDesc(run *lab.Run) string { return datasetDesc(run) }

// PartitionDesc says which CPUs the load generator, PostgREST and
// PostgreSQL were given ("" without a partition).
func PartitionDesc(e lab.Experiment) string { return partitionDesc(e) }

// InterferenceDesc says how the trials shared the machine: the load
// generator's CPU, other work's, and what became of disturbed trials.
func InterferenceDesc(run *lab.Run) string { return interferenceDesc(run) }

// ScenarioLines say, one per scenario, what the run asked and what the
// answers weighed; code formats a request, text the rest.
func ScenarioLines(run *lab.Run, code, text func(string) string) []string {
	return scenarioLines(run, code, text)
}

// TrialCounts says how many valid trials each variant and scenario has:
// "3", or "2–3" when they differ.
func TrialCounts(run *lab.Run) string { return trialCounts(run) }

// OrderOf is the order the run's trials ran in (interleaved unless the
// experiment says otherwise).
func OrderOf(run *lab.Run) lab.Order { return orderOf(run) }

// BinariesDesc lists the executables the variants ran with their
// versions ("" when no variant set one); code formats names and paths,
// text the versions.
func BinariesDesc(run *lab.Run, code, text func(string) string) string {
	return binariesDesc(run, code, text)
}

// Reproduce is the command that measures run again ("lab run NAME", or
// its experiment file) and what it measured: the target's version, the
// lab's, the machine.
func Reproduce(run *lab.Run) (cmd, what string) { return limitsReproduce(run) }

// EventLines list the run's events and failed trials, one line each.
func EventLines(run *lab.Run) []string { return eventLines(run) }

// K6RowOfLoad is one load's k6 figures (the same reading of a trial as
// the k6-style table's: http_req_duration from the send).
func K6RowOfLoad(scenario, variant string, l lab.LoadStats) K6Row {
	return format.K6RowOf(scenario, variant, k6Load(l))
}

// LimitsIntro says what a run's limits table holds.
func LimitsIntro(run *lab.Run) string { return limitsIntro(run) }

// Compares reports whether run compares variants (two or more): a run of
// one shows none of the verdicts' machinery.
func Compares(run *lab.Run) bool { return compares(run) }

// LimitInterval is the interval the limits table states for a row's rate
// (its interval column); 0, 0 when there is none.
func LimitInterval(r stats.LimitRow) (lo, hi float64) { return limitInterval(r) }
