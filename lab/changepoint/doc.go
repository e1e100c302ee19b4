// Package changepoint finds the change points of a series of benchmark
// results (one value per PostgREST commit, oldest first): the indexes at
// which the level of the series moves and stays moved.
//
// # Method
//
// It is the method of Apache Otava (formerly Hunter): D. Fleming, D. Fay,
// A. Drake et al., "Hunter: Using Change Point Detection to Hunt for
// Performance Regressions", ICPE 2023 (doi:10.1145/3578244.3583719), which
// builds on MongoDB's use of E-Divisive means in CI: D. Daly, W. Brown,
// H. Ingo, J. O'Leary and D. Bradford, "The Use of Change Point Detection to
// Identify Software Performance Regressions in a Continuous Integration
// System", ICPE 2020 (doi:10.1145/3358960.3375791). The candidate splits come
// from E-Divisive means: D. S. Matteson and N. A. James, "A Nonparametric
// Approach for Multiple Change Point Analysis of Multivariate Data", JASA
// 109(505), 2014 (doi:10.1080/01621459.2013.849605).
//
// Detect works in two steps, as Otava's compute_change_points does:
//
//  1. Split. Windows of Options.Window points slide over the series; the
//     next window starts half a window on, or at the last change point the
//     window found if that is further. Within a window, E-Divisive
//     repeatedly picks the split τ (and end κ) that maximises
//     Q̂(X, Y) = mn/(m+n) · (2·E|X−Y| − E|X−X'| − E|Y−Y'|) over the
//     current segments, and keeps it while a two-sample t-test between the
//     two sides of τ (within its segment) has a p-value below a relaxed
//     first-pass level (10·MaxP when MaxP < 0.05, as in Otava). Where the
//     original E-Divisive uses a permutation test (random, slow), Hunter
//     uses this t-test: deterministic, and good with few points. The union
//     of all windows' splits are the "weak" change points.
//  2. Merge. Every weak point is tested again between its neighbouring weak
//     points over the whole series. While the weakest (largest p) has
//     p ≥ MaxP, or, when all are significant, the smallest relative change
//     is at most MinChange, that point is removed and its neighbours are
//     tested again.
//
// The windows make the result stable when points are appended: a window
// that lies wholly before the new points sees the same data, so the change
// points well before the end do not move when a new commit's result comes
// in (only the merge step's segment means and p-values of the last change
// points can).
//
// # Statistics
//
// Q̂ uses the absolute distance |x−y| (Otava's default power 1) and is
// computed from an O(w²) table of within-segment distance sums per window,
// so finding the best split of a segment is O(w²), not O(w⁴).
//
// The significance test (Point.P) is Student's two-sample t-test, as in
// Otava, with two changes. The variances are the unbiased ones (Otava passes
// numpy's population standard deviations, ddof=0, to scipy, which makes its
// test a little anti-conservative). And each side's variance is taken as at
// least the pooled one, se² = max(s_a², s²)/n_a + max(s_b², s²)/n_b with
// n_a + n_b − 2 degrees of freedom: with equal variances that is Student's
// test, slightly conservative, but a single +30 % outlier among the first
// or last MinSegment points no longer makes those points a level of their
// own (with Student's pooled variance it does, in about one series in ten;
// see TestOutlier).
//
// Point.CILow and CIHigh are a 95 % confidence interval of the relative
// change After/Before − 1 by Fieller's theorem for the ratio of two
// independent means, with Welch–Satterthwaite degrees of freedom (the
// variances of the two segments are not assumed equal). When Before is not
// significantly different from zero, Fieller's interval is unbounded, and
// the delta method's (After/Before ± t·se) is used instead.
//
// P is the p-value of the split chosen as the best among many, so it is not
// a false-alarm probability: on a series without change, some split has a
// small p far more often than P suggests. With the defaults, flat series of
// 30–40 points in 2 % Gaussian noise get a change point in about 0.9 % of
// cases (TestFalseAlarmRate, which asserts at most 20·MaxP), 80 points in
// about 1.3 %; halving MaxP about halves the rate, at some cost in power.
// A 3 % step in 2 % noise with 20 points on each side is found in about
// 83 % of series (TestStepRates), a 5 % one always.
//
// E-Divisive's index is kept as Otava keeps it: it is within ±1 of the true
// step in about 70 % of the 3 % steps found, as good as the least-squares
// location for a step of 1.5 standard deviations. Moving the change points
// to their best t-test location after the merge was tried and not kept: it
// barely helped and made the change points move as points were appended.
//
// # Input
//
// Values may have any sign and scale (they are scaled by a power of two
// internally, which is exact). NaN and ±Inf are refused: DetectE returns an
// error and Detect no change points. A value missing for a commit should be
// left out of the series, not passed as NaN.
package changepoint
