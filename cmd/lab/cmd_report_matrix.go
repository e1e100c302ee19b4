package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

// reportMatrix re-renders a matrix directory (RESULTS/matrix/<experiment>/
// <timestamp>/) from its matrix.json and the hosts' run.json.
func reportMatrix(dir, format string, alpha float64, write bool, stdout, stderr io.Writer) error {
	if format == "bench" {
		return usageErrorf("report %s: a matrix has no bench format; allowed values are terminal, md, html, json", dir)
	}
	m, err := report.LoadMatrix(dir, alpha)
	if err != nil {
		return err
	}
	if write {
		if err := report.WriteMatrix(dir, m); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s in %s\n", strings.Join(report.MatrixFiles, ", "), dir)
	}
	switch format {
	case "md":
		return report.MatrixMarkdown(stdout, m, dir)
	case "html":
		return report.MatrixHTML(stdout, m, dir)
	case "json":
		return report.MatrixJSON(stdout, m, dir)
	}
	report.MatrixTerminal(stdout, m)
	return nil
}
