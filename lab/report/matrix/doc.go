// Package matrix renders one experiment run on several hosts (`lab run
// --agent A --agent B ...`): each host's state, verdicts and charts, and
// per scenario a cross-host table of every variant's medians with their
// ratios to the reference host's and the unpaired test of `lab compare`
// (Matrix.Compare fills each Host.Versus once; Table and every format
// read it). Text writes it for a terminal, Markdown matrix.md, HTML
// matrix.html, JSON matrix.json, Write all three files, and Load reads a
// matrix back. It builds on the run report (package report) for the
// hosts' verdicts, charts and style.
package matrix
