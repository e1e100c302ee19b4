package session

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// hostLabel names a host's result directory: its hostname, else the
// agent's host; never a path of its own (the agent's answer is not trusted),
// only letters, digits, '.', '-' and '_' (any other character is '_').
func hostLabel(h lab.Host, agentURL string) string {
	name := h.Hostname
	if name == "" || name == "." || name == ".." || len(name) > 64 {
		name = ""
		if u, err := url.Parse(agentURL); err == nil {
			name = u.Hostname()
		}
	}
	if name == "" {
		name = "host"
	}
	// A hostname's own characters only: the label is a file name and goes
	// into links, tables and terminals unquoted.
	return strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
}

// hostVerdicts compares every host with the first, variant by variant, with
// the same statistics as `lab compare`, and writes each comparison as
// RESULTS/hosts-<host>-vs-<first>.md (the matrix shows the ratios).
func hostVerdicts(results string, runs []*lab.Run, labels, dirs []string, stdout io.Writer) error {
	a := report.Compared{Label: labels[0], Dir: dirs[0], Run: runs[0]}
	for i := 1; i < len(runs); i++ {
		b := report.Compared{Label: labels[i], Dir: dirs[i], Run: runs[i]}
		v := stats.CompareRuns(a.Run, b.Run, a.Label, b.Label, 0)
		var md bytes.Buffer
		if err := report.CompareMarkdown(&md, a, b, v); err != nil {
			return err
		}
		name := filepath.Join(results, fmt.Sprintf("hosts-%s-vs-%s.md", b.Label, a.Label))
		if err := os.WriteFile(name, md.Bytes(), 0o644); err != nil {
			return fmt.Errorf("host comparison: %w", err)
		}
		fmt.Fprintf(stdout, "host comparison (as lab compare): %s\n", name)
	}
	return nil
}
