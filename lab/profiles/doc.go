// Package profiles turns the per-trial profiles of a run (CPU profiles,
// SQL statements) into what reports show per variant: the functions where
// CPU went (self and total share), the functions whose share changed most
// against the baseline, flame graphs (SVG, rendered here, no script), a
// pprof profile, and the statements each variant sent per request with
// the differences between variants. It is pure: no I/O but the writers.
package profiles
