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
// # Speed adjustment
//
// On a shared VM the machine's speed drifts within seconds: other tenants
// load the memory system, and the CPU PostgREST and PostgreSQL spend per
// request moves with it, by 4-9 % from one trial to the next on the 2-core
// machines the lab is built on, far more than the effects people argue
// about. Pairing cancels only what the two trials of a round share. So
// every trial also times a fixed piece of work (chases through memory and a
// run of system calls) on the server's machine (lab.Trial.SpeedRefNs, from
// host/telemetry's SpeedRef), and the CPU-per-request rows
// (lab.Metric.SpeedAdjusted) use it as a control variate (S. S. Lavenberg
// and P. D. Welch, "A perspective on the use of control variables to
// increase the efficiency of Monte Carlo simulations", Management Science
// 27(3), 1981; in A/B testing, CUPED: A. Deng et al., WSDM 2013): each
// round's log-ratio y_i loses β·x_i, where x_i is the reference's log-ratio
// of that round and β the least-squares slope of y on x fitted without
// round i. Leaving the round out keeps the slope's own error in the
// adjusted values' spread, so the signed-rank test on them holds alpha
// (4.65 % false positives over 2000 synthetic A/A runs with looks 6..24;
// 6.0 % with one slope for all rounds). The adjustment is valid while the
// variants do not change the reference themselves: its own row (speed_ref)
// tests that, and when it differs at p <= alpha (chance or the variant) a
// CPU row is significant only if both its unadjusted and its adjusted
// ratios are, in the same direction, and its p-value is the larger of the
// two (an intersection test, no more false positives than either; 4.70 % in
// the same A/A), said in one warning per comparison on the rows where the
// two disagree and nowhere else; at p <= 1e-4 it is the variant's doing, and they are
// tested unadjusted. Rows keep the unadjusted p-value and noise
// (Paired.Speed). [trials] speed_adjust = false turns it off; trials
// without a reference (older records) are tested unadjusted.
//
// # Minimum detectable effect
//
// Every row carries the change it would have detected with 80 % power
// (MDEPct), from the run's own noise (the standard deviation of the
// log-ratios, or of the log values when unpaired), its number of trials and
// its threshold, with the rank tests' efficiency 3/π. PlanRounds inverts it
// for `lab plan`. Where the test cannot reach its threshold with the
// trials it has (MinP, Reachable: fewer than 6 pairs at 0.05) no change is
// detectable, and no MDE is stated; Reach is `lab validate`'s warning for
// an experiment whose trials.max is below that.
//
// A comparison that is not significant is shown as "~" (no difference).
// Rows carry warnings a reader must see: too few trials, high noise (a
// confidence interval wider than ±NoiseLimit of the median), and events in
// the trials (OOM kills, crashes, failed trials, request errors).
//
// The headline of a (scenario, variant) pair is its primary metric
// (lab.PrimaryMetric: throughput, latency p99 in the open model, CPU per
// request in efficiency mode, or the file's [trials] headline). Secondary
// metrics are tested one by one without correction for multiple
// comparisons (like benchstat), so in an A/A run some of the eight metrics
// come out significant by chance about one time in three; read them as
// supporting evidence, not as verdicts on their own.
package stats
