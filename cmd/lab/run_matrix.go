package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/systemd/agent"
	"github.com/pgrst-lab/pgrst-lab/systemd/host"
)

// runMatrix runs the experiment on every agent's host, at the same time
// when planMatrix allows, else one after another. Each host keeps its own
// result directory and verdicts (RESULTS/<host>/<experiment>/<timestamp>/);
// one matrix report puts the hosts side by side
// (RESULTS/matrix/<experiment>/<timestamp>/). A host that fails is named in
// the matrix with why; the others are still reported.
func runMatrix(ctx context.Context, e *lab.Experiment, urls []string, opts []agent.ClientOptions, results string, stdout io.Writer) error {
	m := &report.Matrix{Experiment: e.Name, Title: e.Title, Started: time.Now(), Hosts: make([]report.MatrixHost, len(urls))}
	used := map[string]int{"matrix": 1} // RESULTS/matrix/ is the matrix's
	var described []int
	var hosts []lab.Host
	var labels []string
	for i, u := range urls {
		h, err := describeAgent(ctx, u, opts[i])
		m.Hosts[i] = report.MatrixHost{URL: u, Label: uniqueLabel(used, hostLabel(h, u))}
		if err != nil {
			m.Hosts[i].Error = err.Error()
			fmt.Fprintf(stdout, "agent %s: %v\n", u, err)
			continue
		}
		described = append(described, i)
		hosts, labels = append(hosts, h), append(labels, m.Hosts[i].Label)
	}
	plan := planMatrix(host.DescribeHost(ctx), hosts, labels, e)
	m.Concurrent, m.Schedule = plan.concurrent, plan.why
	if plan.concurrent {
		fmt.Fprintf(stdout, "%d hosts at the same time: %s\n", len(described), plan.why)
	} else {
		fmt.Fprintf(stdout, "%d host(s) one after another: %s\n", len(described), plan.why)
	}

	runOne := func(k, i int, w io.Writer) {
		h := &m.Hosts[i]
		ex := e
		if plan.concurrent {
			cp := *e
			cp.Partition.Generator = plan.generators[k]
			ex, h.Generator = &cp, plan.generators[k]
		}
		run, dir, err := runOnAgent(ctx, ex, h.URL, opts[i], filepath.Join(results, h.Label), w)
		h.Run, h.Dir = run, dir
		if run != nil {
			h.Verdicts = stats.Compare(run, 0)
		}
		if err != nil {
			h.Error = err.Error()
		}
	}
	if plan.concurrent {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for k, i := range described {
			pw := &prefixWriter{mu: &mu, w: stdout, prefix: "[" + m.Hosts[i].Label + "] "}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer pw.Flush()
				runOne(k, i, pw)
			}()
		}
		wg.Wait()
	} else {
		for k, i := range described {
			if err := ctx.Err(); err != nil {
				m.Hosts[i].Error = fmt.Sprintf("not run: interrupted before its turn (%v)", err)
				continue
			}
			fmt.Fprintf(stdout, "\n== host %s (%s)\n", m.Hosts[i].Label, m.Hosts[i].URL)
			runOne(k, i, stdout)
		}
	}

	var errs []error
	var runs []*lab.Run
	var okLabels, dirs []string
	for _, h := range m.Hosts {
		if h.Error != "" {
			errs = append(errs, fmt.Errorf("agent %s (%s): %s", h.URL, h.Label, h.Error))
		}
		if h.Run != nil && h.Dir != "" {
			runs, okLabels, dirs = append(runs, h.Run), append(okLabels, h.Label), append(dirs, h.Dir)
		}
	}
	if len(runs) > 1 {
		if err := hostVerdicts(results, runs, okLabels, dirs, stdout); err != nil {
			errs = append(errs, err)
		}
	}
	dir := filepath.Join(results, "matrix", e.Name, m.Started.UTC().Format("20060102-150405"))
	fmt.Fprintln(stdout)
	report.MatrixTerminal(stdout, m)
	if err := report.WriteMatrix(dir, m); err != nil {
		return errors.Join(append(errs, err)...)
	}
	fmt.Fprintf(stdout, "\nmatrix report: %s (matrix.md, matrix.html, matrix.json)\n", dir)
	return errors.Join(errs...)
}

// describeAgent asks an agent what host and target it serves (no session).
func describeAgent(ctx context.Context, u string, o agent.ClientOptions) (lab.Host, error) {
	c, err := agent.NewClient(u, o)
	if err != nil {
		return lab.Host{}, err
	}
	h, _, err := c.Describe(ctx)
	return h, err
}

// uniqueLabel is label, or label-2, label-3... when taken.
func uniqueLabel(used map[string]int, label string) string {
	used[label]++
	if n := used[label]; n > 1 {
		return fmt.Sprintf("%s-%d", label, n)
	}
	return label
}

// prefixWriter writes whole lines, each with a prefix, under a lock shared
// by the writers of hosts running at the same time.
type prefixWriter struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.mu.Lock()
		_, err := fmt.Fprintf(p.w, "%s%s", p.prefix, p.buf[:i+1])
		p.mu.Unlock()
		p.buf = p.buf[i+1:]
		if err != nil {
			return len(b), err
		}
	}
}

// Flush writes what is left of an unfinished line.
func (p *prefixWriter) Flush() {
	if len(p.buf) > 0 {
		_, _ = p.Write([]byte("\n"))
	}
}
