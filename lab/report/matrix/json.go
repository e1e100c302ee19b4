package matrix

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

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
	RateTest *Test `json:"rate_test,omitempty"`
	P99Test  *Test `json:"p99_test,omitempty"`
	CPUTest  *Test `json:"cpu_test,omitempty"`
}

// JSON writes matrix.json: the schedule, the hosts (with their own
// verdicts and result directories, also relative to dir, where matrix.json
// is written) and the cross-host cells, unknown values as null.
func JSON(w io.Writer, m *Matrix, dir string) error {
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
			hj.Hostname, hj.HostID, hj.Target = h.Run.Host.Hostname, h.Run.Host.HostID, report.TargetDesc(h.Run.Target)
			if h.Verdicts != nil {
				rec := report.VerdictsRecord(h.Verdicts, nil)
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
