// Package sweep renders a sweep's section of the run report: per scenario
// the recommendation (the cheapest value the test cannot tell from the
// best), a table of every value's medians and, in HTML, each metric
// against the swept value as a curve with its confidence band. Text,
// Markdown and HTML each write one format (text.go, md.go, html.go);
// package report places the section in report.md, report.html and the
// terminal report.
package sweep
