// Package history turns an experiment's runs into series and finds where
// they changed: `lab history`.
//
// A series is one scenario × variant × metric of one machine and one
// edition of the experiment file; its points are runs, each the run's
// median for that cell with its 95 % confidence interval (lab/stats, as
// the reports compute them) and the run's minimum detectable effect for
// it: the smallest change between two runs of this size and noise that an
// unpaired test detects with 80 % power.
//
// Runs are ordered by commit (git's topological order when the caller
// gives it, else commits in the order they were first measured), by
// version (semantic version order) or by time; see Order.
//
// Change points are found on a series' medians by E-Divisive means, each
// kept when a t-test between the segments either side is significant
// (lab/changepoint), the method of Otava
// (Apache Otava, formerly DataStax's Hunter: Fleming et al., "Hunter: Using
// Change Point Detection to Hunt for Performance Regressions", ICPE 2023;
// Matteson and James, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", JASA 2014). Each change point is
// reported with the commit range where it happened (the last run before
// and the first at the new level), its size with an interval, and whether
// it exceeds the MDE of the runs around it: a change smaller than what the
// runs can resolve is said to be so.
//
// Regressions, the regression check, decides whether the newest run
// begins a significant regression (`lab history --gate`, exit code 3; the
// rules of `lab run --gate` on one run's verdicts are package gate's).
// Package report/history writes the results (text and the HTML trend
// page); this package says what they name: Method, OrderDesc, Group.Title,
// Change.What and Verdict, Point.Describe, Num and ShortCommit.
//
// The package works on Run values (a record with its ID and where its
// report is); it does not know where they are stored: cmd/lab loads them
// from a results directory (LoadDir) or from the store.
package history
