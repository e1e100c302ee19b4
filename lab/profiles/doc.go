// Package profiles turns the per-trial profiles of a run (CPU profiles,
// SQL statements) into what reports show per variant: the functions where
// CPU went (self and total share), the functions whose share changed most
// against the baseline, the merged stacks, a pprof profile, and the
// statements each variant sent per request with the differences between
// variants. It is pure: no I/O but the pprof writer. The flame graph and
// the other renderings are package report/profile's.
package profiles
