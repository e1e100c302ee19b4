package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// MatrixTerminal writes a matrix for a terminal: the hosts and how they
// ran, the hosts side by side per scenario and variant, a cross-host table
// per scenario and each host's own verdicts.
func MatrixTerminal(w io.Writer, m *Matrix) {
	title := fmt.Sprintf("Matrix: %s on %d hosts", m.title(), len(m.Hosts))
	fmt.Fprintf(w, "%s\n%s\n%s\n", title, strings.Repeat("=", len([]rune(title))), m.scheduleLine())
	for _, h := range m.Hosts {
		fmt.Fprintf(w, "  %-12s %s (%s)\n", h.Label, hostState(h), h.URL)
		if h.Run != nil {
			fmt.Fprintf(w, "  %-12s %s; %s\n", "", HostDesc(h.Run.Host), TargetDesc(h.Run.Target))
		}
		if h.Generator != "" {
			fmt.Fprintf(w, "  %-12s load generator on the driver's CPUs %s\n", "", h.Generator)
		}
	}
	tables := m.Table()
	fmt.Fprintf(w, "\nHosts side by side (medians: req/s, p99 ms):\n")
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  scenario\tvariant")
	for _, h := range m.Hosts {
		fmt.Fprintf(tw, "\t%s", h.Label)
	}
	fmt.Fprintln(tw)
	for _, sc := range tables {
		for _, r := range sc.Rows {
			fmt.Fprintf(tw, "  %s\t%s", sc.Name, r.Variant)
			for _, c := range r.Cells {
				fmt.Fprintf(tw, "\t%s", sideBySide(c))
			}
			fmt.Fprintln(tw)
		}
	}
	tw.Flush()
	format.WriteTrimmed(w, b.String())
	fmt.Fprintf(w, "\n%s\n", m.referenceLine())
	for _, sc := range tables {
		fmt.Fprintf(w, "\n%s across hosts:\n", sc.Name)
		vw, hw := len("variant"), len("host")
		for _, r := range sc.Rows {
			vw = max(vw, len([]rune(r.Variant)))
			for _, c := range r.Cells {
				hw = max(hw, len([]rune(c.Host)))
			}
		}
		fmt.Fprintf(w, "  %-*s  %-*s  %7s %-7s  %7s %-7s  %10s %-7s  %6s\n", vw, "variant", hw, "host", "req/s", "×", "p99 ms", "×", "CPU µs/req", "×", "trials")
		for _, r := range sc.Rows {
			for _, c := range r.Cells {
				fmt.Fprintf(w, "  %-*s  %-*s  %7s %-7s  %7s %-7s  %10s %-7s  %6d\n", vw, r.Variant, hw, c.Host, valueStr(c.Rate), ratioTest(c.RateRatio, c.RateTest),
					valueStr(c.P99), ratioTest(c.P99Ratio, c.P99Test), valueStr(c.CPU), ratioTest(c.CPURatio, c.CPUTest), c.Trials)
			}
		}
	}
	for _, h := range m.Hosts {
		fmt.Fprintf(w, "\n%s verdict:\n", h.Label)
		for _, line := range hostVerdictLines(h) {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

// sideBySide is a host's cell in the side-by-side table: "1234 / 2.10".
func sideBySide(c MatrixCell) string {
	if math.IsNaN(c.Rate) {
		return "–"
	}
	return valueStr(c.Rate) + " / " + valueStr(c.P99)
}

// hostVerdictLines are a host's own verdicts, or why it has none.
func hostVerdictLines(h MatrixHost) []string {
	var out []string
	if h.Error != "" {
		out = append(out, hostState(h))
	}
	if h.Run != nil && h.Verdicts != nil {
		out = append(out, Headlines(h.Verdicts)...)
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

// MatrixMarkdown writes matrix.md; links to the hosts' own reports are
// relative to dir, where matrix.md is written.
func MatrixMarkdown(w io.Writer, m *Matrix, dir string) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# Matrix: %s on %d hosts\n\n%s\n\n", format.MdEscape(m.title()), len(m.Hosts), format.MdEscape(m.scheduleLine()))
	fmt.Fprintf(b, "## Hosts\n\n")
	for _, h := range m.Hosts {
		fmt.Fprintf(b, "- **%s** (agent %s): %s", format.MdEscape(h.Label), format.MdEscape(h.URL), format.MdEscape(hostState(h)))
		if h.Dir != "" {
			fmt.Fprintf(b, "; [report.md](%s)", relLink(dir, h.Dir, "report.md"))
		}
		fmt.Fprintln(b)
		if h.Run != nil {
			fmt.Fprintf(b, "  - machine: %s\n  - target: %s\n", format.MdEscape(HostDesc(h.Run.Host)), format.MdEscape(TargetDesc(h.Run.Target)))
		}
		if h.Generator != "" {
			fmt.Fprintf(b, "  - load generator on the driver's CPUs %s\n", h.Generator)
		}
	}
	tables := m.Table()
	fmt.Fprintf(b, "\n## Hosts side by side\n\nMedian throughput (req/s) / p99 latency (ms) per scenario and variant.\n\n| scenario | variant |")
	sep := "|---|---|"
	for _, h := range m.Hosts {
		fmt.Fprintf(b, " %s |", format.MdEscape(h.Label))
		sep += "---:|"
	}
	fmt.Fprintf(b, "\n%s\n", sep)
	for _, sc := range tables {
		for _, r := range sc.Rows {
			fmt.Fprintf(b, "| %s | %s |", format.MdEscape(sc.Name), format.MdEscape(r.Variant))
			for _, c := range r.Cells {
				fmt.Fprintf(b, " %s |", sideBySide(c))
			}
			fmt.Fprintln(b)
		}
	}
	fmt.Fprintf(b, "\n## Across hosts, per scenario\n\n%s\n\n", format.MdEscape(m.referenceLine()))
	for _, sc := range tables {
		fmt.Fprintf(b, "### %s\n\n| variant | host | req/s | × | p99 ms | × | CPU µs/req | × | trials |\n"+
			"|---|---|---:|---:|---:|---:|---:|---:|---:|\n", format.MdEscape(sc.Name))
		for _, r := range sc.Rows {
			for _, c := range r.Cells {
				fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %d |\n", format.MdEscape(r.Variant), format.MdEscape(c.Host), valueStr(c.Rate),
					ratioTest(c.RateRatio, c.RateTest), valueStr(c.P99), ratioTest(c.P99Ratio, c.P99Test), valueStr(c.CPU), ratioTest(c.CPURatio, c.CPUTest), c.Trials)
			}
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintf(b, "## Each host's verdict\n\n")
	for _, h := range m.Hosts {
		fmt.Fprintf(b, "### %s\n\n", format.MdEscape(h.Label))
		for _, line := range hostVerdictLines(h) {
			fmt.Fprintf(b, "- %s\n", format.MdEscape(line))
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintf(b, "---\nGenerated by pgrst-lab from the hosts' run.json.\n")
	return b.Flush()
}

// relLink is the path of file in hostDir relative to dir (slash-separated).
func relLink(dir, hostDir, file string) string {
	p := filepath.Join(hostDir, file)
	if rel, err := filepath.Rel(dir, p); err == nil {
		p = rel
	}
	return filepath.ToSlash(p)
}

// matrixJSON is matrix.json.
type matrixJSON struct {
	Experiment string           `json:"experiment"`
	Title      string           `json:"title,omitempty"`
	Started    string           `json:"started"`
	Concurrent bool             `json:"concurrent"`
	Schedule   string           `json:"schedule"`
	Reference  string           `json:"reference,omitempty"`
	Hosts      []matrixHostJSON `json:"hosts"`
	Scenarios  []matrixScJSON   `json:"scenarios"`
}

type matrixHostJSON struct {
	Label     string             `json:"label"`
	URL       string             `json:"agent"`
	Dir       string             `json:"dir,omitempty"`
	ReportDir string             `json:"report_dir,omitempty"` // Dir relative to matrix.json's directory
	Hostname  string             `json:"hostname,omitempty"`
	HostID    string             `json:"host_id,omitempty"`
	Target    string             `json:"target,omitempty"`
	Generator string             `json:"generator_cpus,omitempty"`
	Error     string             `json:"error,omitempty"`
	Verdicts  *record.VerdictsV1 `json:"verdicts,omitempty"`
}

type matrixScJSON struct {
	Name  string           `json:"name"`
	Cells []matrixCellJSON `json:"cells"`
}

type matrixCellJSON struct {
	Variant   string   `json:"variant"`
	Host      string   `json:"host"`
	Trials    int      `json:"trials"`
	Rate      *float64 `json:"rate"`
	P99       *float64 `json:"p99_ms"`
	CPU       *float64 `json:"cpu_us_per_req"`
	RateRatio *float64 `json:"rate_ratio"`
	P99Ratio  *float64 `json:"p99_ratio"`
	CPURatio  *float64 `json:"cpu_ratio"`
	// The Mann-Whitney test against the reference host; absent when untested.
	RateTest *MatrixTest `json:"rate_test,omitempty"`
	P99Test  *MatrixTest `json:"p99_test,omitempty"`
	CPUTest  *MatrixTest `json:"cpu_test,omitempty"`
}

// MatrixJSON writes matrix.json: the schedule, the hosts (with their own
// verdicts and result directories, also relative to dir, where matrix.json
// is written) and the cross-host cells, unknown values as null.
func MatrixJSON(w io.Writer, m *Matrix, dir string) error {
	out := matrixJSON{Experiment: m.Experiment, Title: m.Title, Started: m.Started.UTC().Format("2006-01-02T15:04:05Z"),
		Concurrent: m.Concurrent, Schedule: m.Schedule, Hosts: []matrixHostJSON{}, Scenarios: []matrixScJSON{}}
	if ref := m.Reference(); ref >= 0 {
		out.Reference = m.Hosts[ref].Label
	}
	for _, h := range m.Hosts {
		hj := matrixHostJSON{Label: h.Label, URL: h.URL, Dir: h.Dir, Error: h.Error, Generator: h.Generator}
		if h.Dir != "" {
			hj.ReportDir = relLink(dir, h.Dir, ".")
		}
		if h.Run != nil {
			hj.Hostname, hj.HostID, hj.Target = h.Run.Host.Hostname, h.Run.Host.HostID, TargetDesc(h.Run.Target)
			if h.Verdicts != nil {
				rec := VerdictsRecord(h.Verdicts, nil)
				hj.Verdicts = &rec
			}
		}
		out.Hosts = append(out.Hosts, hj)
	}
	for _, sc := range m.Table() {
		sj := matrixScJSON{Name: sc.Name, Cells: []matrixCellJSON{}}
		for _, r := range sc.Rows {
			for _, c := range r.Cells {
				sj.Cells = append(sj.Cells, matrixCellJSON{Variant: r.Variant, Host: c.Host, Trials: c.Trials, Rate: format.Finite(c.Rate),
					P99: format.Finite(c.P99), CPU: format.Finite(c.CPU), RateRatio: format.Finite(c.RateRatio), P99Ratio: format.Finite(c.P99Ratio),
					CPURatio: format.Finite(c.CPURatio), RateTest: c.RateTest, P99Test: c.P99Test, CPUTest: c.CPUTest})
			}
		}
		out.Scenarios = append(out.Scenarios, sj)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("matrix json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
