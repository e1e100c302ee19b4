// Package bisect is the domain of `lab bisect`: the first commit of a
// performance change between GOOD, a commit at the old level, and BAD, a
// later one at the new level, found by halving the commits between them.
//
// Each step builds the midpoint and measures it against both ends in the
// same run: the three builds in rounds (each in a random order), so that each
// comparison is the lab's paired, sequential test (package stats) and the
// machine's drift falls on all three alike. The ends are built once and
// measured again in every step, in that step's rounds: a midpoint compared
// with the ends' trials of an earlier run would lose the pairing, and the
// drift between runs on a shared machine (4-9 % of CPU per request) is
// larger than many changes worth finding. Decide places the midpoint at
// the old level, at the new level, or says it cannot tell and why (the
// ends do not differ in its rounds, the midpoint lies between the levels
// or beyond them, or neither end differs at the last round).
//
// The loop (Bisector) takes its builds and its measurements through ports,
// Builder (gitbuild, as lab track's) and Measurer (RunMeasurer over a
// Runner that cmd/lab wires to lab/session), so that the search itself is
// tested with fakes.
package bisect
