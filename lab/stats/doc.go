// Package stats turns a run's trials into verdicts: for every scenario,
// metric and variant, the baseline and the variant are summarised by their
// median with a confidence interval, and compared with the Mann-Whitney U
// test of golang.org/x/perf/benchmath (AssumeNothing), as benchstat does.
//
// A comparison that is not significant at the chosen alpha is shown as "~"
// (no difference). Rows carry warnings a reader must see: too few trials
// for the alpha (as benchmath reports them), high noise (a confidence
// interval wider than ±NoiseLimit of the median), and events in the trials
// (OOM kills, crashes, failed trials, request errors).
//
// The headline of a (scenario, variant) pair is its primary metric,
// throughput. Secondary metrics are tested one by one without correction
// for multiple comparisons (like benchstat), so in an A/A run some of the
// eight metrics come out significant by chance about one time in three;
// read them as supporting evidence, not as verdicts on their own.
//
// Decided is the adaptive stopping rule the run loop calls after each round.
package stats
