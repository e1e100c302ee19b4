package matrix

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Text writes a matrix for a terminal: the hosts and how they
// ran, the hosts side by side per scenario and variant, a cross-host table
// per scenario and each host's own verdicts.
func Text(w io.Writer, m *Matrix) {
	title := textsafe.CleanText(fmt.Sprintf("Matrix: %s on %d hosts", m.title(), len(m.Hosts)))
	textsafe.Fprintf(w, "%s\n%s\n%s\n", title, strings.Repeat("=", len([]rune(title))), m.scheduleLine())
	for _, h := range m.Hosts {
		textsafe.Fprintf(w, "  %-12s %s (%s)\n", h.Label, hostState(h), h.URL)
		if h.Run != nil {
			textsafe.Fprintf(w, "  %-12s %s; %s\n", "", report.HostDesc(h.Run.Host), report.TargetDesc(h.Run.Target))
		}
		if h.Generator != "" {
			textsafe.Fprintf(w, "  %-12s load generator on the driver's CPUs %s\n", "", h.Generator)
		}
	}
	tables := m.Table()
	fmt.Fprintf(w, "\nHosts side by side (medians: req/s, p99 ms):\n")
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  scenario\tvariant")
	for _, h := range m.Hosts {
		textsafe.Fprintf(tw, "\t%s", h.Label)
	}
	fmt.Fprintln(tw)
	for _, sc := range tables {
		for _, r := range sc.Rows {
			textsafe.Fprintf(tw, "  %s\t%s", sc.Name, r.Variant)
			for _, c := range r.Cells {
				textsafe.Fprintf(tw, "\t%s", sideBySide(c))
			}
			fmt.Fprintln(tw)
		}
	}
	tw.Flush()
	format.WriteTrimmed(w, b.String())
	textsafe.Fprintf(w, "\n%s\n", m.referenceLine())
	for _, sc := range tables {
		textsafe.Fprintf(w, "\n%s across hosts:\n", sc.Name)
		vw, hw := len("variant"), len("host")
		for _, r := range sc.Rows {
			vw = max(vw, len([]rune(r.Variant)))
			for _, c := range r.Cells {
				hw = max(hw, len([]rune(c.Host)))
			}
		}
		textsafe.Fprintf(w, "  %-*s  %-*s  %7s %-7s  %7s %-7s  %10s %-7s  %6s\n", vw, "variant", hw, "host", "req/s", "×", "p99 ms", "×", "CPU µs/req", "×", "trials")
		for _, r := range sc.Rows {
			for _, c := range r.Cells {
				textsafe.Fprintf(w, "  %-*s  %-*s  %7s %-7s  %7s %-7s  %10s %-7s  %6d\n", vw, r.Variant, hw, c.Host, valueStr(c.Rate), ratioTest(c.RateRatio, c.RateTest),
					valueStr(c.P99), ratioTest(c.P99Ratio, c.P99Test), valueStr(c.CPU), ratioTest(c.CPURatio, c.CPUTest), c.Trials)
			}
		}
	}
	if costs := m.Costs(); len(costs) > 0 {
		fmt.Fprintf(w, "\nScale out or up? (cost per million requests at each host's limit)\n")
		for _, r := range costs {
			textsafe.Fprintf(w, "  %s: %s\n", r.Scenario, r.Answer)
		}
	}
	for _, h := range m.Hosts {
		textsafe.Fprintf(w, "\n%s verdict:\n", h.Label)
		for _, line := range hostVerdictLines(h) {
			textsafe.Fprintf(w, "  %s\n", line)
		}
	}
}

// sideBySide is a host's cell in the side-by-side table: "1234 / 2.10".
func sideBySide(c Cell) string {
	if math.IsNaN(c.Rate) {
		return "–"
	}
	return valueStr(c.Rate) + " / " + valueStr(c.P99)
}

// hostVerdictLines are a host's own verdicts, or why it has none.
func hostVerdictLines(h Host) []string {
	var out []string
	if h.Error != "" {
		out = append(out, hostState(h))
	}
	if h.Run != nil && h.Verdicts != nil {
		out = append(out, report.Headlines(h.Verdicts)...)
	}
	if h.Dir != "" {
		out = append(out, "report: "+h.Dir)
	}
	return out
}

func (m *Matrix) title() string {
	if m.Title != "" {
		return m.Title
	}
	return m.Experiment
}
