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
	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
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

// hostVerdicts writes each host's comparison with the matrix's reference
// host (Host.Versus, from Matrix.Compare: the statistics of `lab
// compare`) as RESULTS/hosts-<host>-vs-<reference>.md, for the hosts with
// a result directory (the matrix shows the ratios).
func hostVerdicts(results string, m *matrix.Matrix, stdout io.Writer) error {
	ref := m.Reference()
	if ref < 0 || m.Hosts[ref].Dir == "" {
		return nil
	}
	a := report.Compared{Label: m.Hosts[ref].Label, Dir: m.Hosts[ref].Dir, Run: m.Hosts[ref].Run}
	for _, h := range m.Hosts {
		if h.Versus == nil || h.Dir == "" {
			continue
		}
		b := report.Compared{Label: h.Label, Dir: h.Dir, Run: h.Run}
		var md bytes.Buffer
		if err := report.CompareMarkdown(&md, a, b, h.Versus); err != nil {
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
