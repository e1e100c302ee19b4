package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
)

// reportMatrix re-renders a matrix directory (RESULTS/matrix/<experiment>/
// <timestamp>/) from its matrix.json and the hosts' run.json.
func reportMatrix(dir, format string, alpha float64, write bool, stdout, stderr io.Writer) error {
	if format == "bench" {
		return usageErrorf("report %s: a matrix has no bench format; allowed values are terminal, md, html, json", dir)
	}
	m, err := matrix.Load(dir, alpha)
	if err != nil {
		return err
	}
	if write {
		if err := matrix.Write(dir, m); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s in %s\n", strings.Join(matrix.Files, ", "), dir)
	}
	switch format {
	case "md":
		return matrix.Markdown(stdout, m, dir)
	case "html":
		return matrix.HTML(stdout, m, dir)
	case "json":
		return matrix.JSON(stdout, m, dir)
	}
	matrix.Text(stdout, m)
	return nil
}
