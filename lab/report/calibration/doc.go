// Package calibration renders a calibration of a design (lab calibrate):
// the power curve as a table, how often the design declared a difference
// in A/A runs and with each injected effect. Text writes it for a
// terminal, Markdown calibration.md, HTML calibration.html with the power
// chart (PowerChart) and Write all three files with calibration.json. It
// reuses the run report's descriptions of the machine, load and target
// (package report).
package calibration
