// Package history renders an experiment's history (lab/history's
// analysis) for `lab history`: Text for a terminal, one block per series
// with its change points, and HTML, a self-contained trend page (inline
// CSS and SVG, no scripts, no external URLs) whose points link to their
// runs' reports (ReportLink).
package history
