// Package profile renders a profiled run (profile = true): where the CPU
// went per variant, the functions whose share moved against the baseline,
// GHC runtime statistics and the SQL each variant sent. Of gathers it from
// the run (the analysis is lab/profiles); JSON writes profile.json,
// Markdown and HTML the sections of report.md and report.html, FlameSVG
// and Folded a flame graph and flamegraph.pl's folded stacks, and Write
// all the profile files of a result directory.
package profile
