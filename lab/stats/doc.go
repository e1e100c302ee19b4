// Package stats turns a run's trials into verdicts: for every scenario,
// metric and variant, the baseline and the variant are summarised by their
// median with a confidence interval (golang.org/x/perf/benchmath,
// AssumeNothing, as benchstat does) and compared.
//
// # Paired analysis
//
// Each round measures every variant back to back, so a round is a block:
// slow drift of the machine (other work, thermal state, the page cache)
// hits baseline and variant of the same round alike. When every round
// measured both variants, a row's verdict uses the per-round log-ratios
// ln(variant/baseline) and the exact Wilcoxon signed-rank test
// (SignedRankP); otherwise, or with [trials] analysis = "unpaired", the
// Mann-Whitney U test of benchmath on the two samples. Both p-values are
// kept; Row.Test says which one the verdict uses.
//
// # Sequential testing
//
// The run loop looks at the verdict after every round from Trials.Min to
// Trials.Max and stops when it is decided (Decided). Testing each look at
// alpha would raise the false-positive rate well above alpha (15 % instead
// of 5 % with looks 5..20 in the synthetic tests). Instead the looks form
// a group-sequential design: alpha is spent over the information fractions
// n/Max with the Lan-DeMets alpha-spending function of O'Brien-Fleming type,
// α(t) = 2 − 2Φ(z_{1−α/2}/√t) (K. K. G. Lan and D. L. DeMets, "Discrete
// sequential boundaries for clinical trials", Biometrika 70(3), 1983), and
// the boundaries are found by recursive numerical integration (Armitage,
// McPherson and Rowe 1969; C. Jennison and B. W. Turnbull, "Group
// Sequential Methods with Applications to Clinical Trials", 2000, ch. 19).
// A look's p-value threshold (Row.Threshold) is the two-sided tail of its
// boundary: tiny at early looks, a little under alpha at the last. Stopping
// because a change is within ±DecidedMargin (futility) never rejects, so it
// only lowers the error rate. [trials] sequential = false restores the
// naive rule.
//
// # Minimum detectable effect
//
// Every row carries the change it would have detected with 80 % power
// (MDEPct), from the run's own noise (the standard deviation of the
// log-ratios, or of the log values when unpaired), its number of trials and
// its threshold, with the rank tests' efficiency 3/π. PlanRounds inverts it
// for `lab plan`.
//
// A comparison that is not significant is shown as "~" (no difference).
// Rows carry warnings a reader must see: too few trials, high noise (a
// confidence interval wider than ±NoiseLimit of the median), and events in
// the trials (OOM kills, crashes, failed trials, request errors).
//
// The headline of a (scenario, variant) pair is its primary metric,
// throughput. Secondary metrics are tested one by one without correction
// for multiple comparisons (like benchstat), so in an A/A run some of the
// eight metrics come out significant by chance about one time in three;
// read them as supporting evidence, not as verdicts on their own.
package stats
