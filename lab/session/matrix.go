package session

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
	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
)

// Remote is one host of a matrix: a server side that an agent serves.
type Remote interface {
	// URL names the host (its agent's URL).
	URL() string
	// Describe says what host it is, without taking its agent.
	Describe(ctx context.Context) (lab.Host, error)
	// Run runs the experiment there, writing its result directory under
	// results and printing to out (as Run with the agent's server side).
	Run(ctx context.Context, e *lab.Experiment, results string, out io.Writer) (*Result, error)
}

// Matrix is one experiment on several hosts: each host keeps its own
// result directory and verdicts (Results/<host>/<experiment>/<stamp>/),
// one matrix report puts them side by side
// (Results/matrix/<experiment>/<stamp>/), and every host is compared with
// the first as `lab compare` does (Results/hosts-<host>-vs-<first>.md).
type Matrix struct {
	Experiment *lab.Experiment
	Driver     lab.Host // this machine, where the load generators run
	Hosts      []Remote
	Results    string
	Out        io.Writer
}

// Run runs the experiment on every host, at the same time when planMatrix
// allows, else one after another. A host that fails is named in the
// matrix with why; the others are still reported.
func (mx *Matrix) Run(ctx context.Context) error {
	e, results, stdout := mx.Experiment, mx.Results, mx.Out
	m := &matrix.Matrix{Experiment: e.Name, Title: e.Title, Started: time.Now(), Hosts: make([]matrix.Host, len(mx.Hosts))}
	used := map[string]bool{"matrix": true} // RESULTS/matrix/ is the matrix's
	var described []int
	var hosts []lab.Host
	var labels []string
	for i, r := range mx.Hosts {
		u := r.URL()
		h, err := r.Describe(ctx)
		m.Hosts[i] = matrix.Host{URL: u, Label: lab.UniqueName(hostLabel(h, u), used)}
		if err != nil {
			m.Hosts[i].Error = err.Error()
			fmt.Fprintf(stdout, "agent %s: %v\n", u, err)
			continue
		}
		described = append(described, i)
		hosts, labels = append(hosts, h), append(labels, m.Hosts[i].Label)
	}
	plan := planMatrix(mx.Driver, hosts, labels, e)
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
		res, err := mx.Hosts[i].Run(ctx, ex, filepath.Join(results, h.Label), w)
		if res != nil {
			h.Run, h.Dir, h.Verdicts = res.Run, res.Dir, res.Verdicts
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
	for _, h := range m.Hosts {
		if h.Error != "" {
			errs = append(errs, fmt.Errorf("agent %s (%s): %s", h.URL, h.Label, h.Error))
		}
	}
	m.Compare()
	if err := hostVerdicts(results, m, stdout); err != nil {
		errs = append(errs, err)
	}
	dir := ResultDir(filepath.Join(results, "matrix"), e.Name, m.Started)
	fmt.Fprintln(stdout)
	matrix.Text(stdout, m)
	if err := matrix.Write(dir, m); err != nil {
		return errors.Join(append(errs, err)...)
	}
	fmt.Fprintf(stdout, "\nmatrix report: %s (matrix.md, matrix.html, matrix.json)\n", dir)
	return errors.Join(errs...)
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
