package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/systemd/agent"
)

// agentFlags are `lab run`'s flags for remote server sides.
type agentFlags struct {
	urls, tokenFiles []string
	ca, cert, key    string
}

func (a *agentFlags) add(fs interface {
	Func(name, usage string, fn func(string) error)
	StringVar(p *string, name, value, usage string)
}) {
	fs.Func("agent", "run against `lab agent` at this URL (repeat for several hosts: one matrix report); load is generated here", func(s string) error {
		a.urls = append(a.urls, s)
		return nil
	})
	fs.Func("token-file", "the agent's bearer token file (mode 0600); with several --agent, one per agent in the same order", func(s string) error {
		a.tokenFiles = append(a.tokenFiles, s)
		return nil
	})
	fs.StringVar(&a.ca, "ca", "", "CA certificate the agents' TLS certificates are signed by")
	fs.StringVar(&a.cert, "cert", "", "client certificate, for agents that require one")
	fs.StringVar(&a.key, "key", "", "client certificate's key")
}

// clientOptions reads each agent's token (the i-th --token-file is the
// i-th --agent's, and is sent to that agent only) and TLS settings.
func (a *agentFlags) clientOptions(stderr io.Writer) ([]agent.ClientOptions, error) {
	if len(a.tokenFiles) == 0 {
		return nil, usageErrorf("run --agent: give --token-file (the agent's bearer token)")
	}
	if len(a.tokenFiles) != len(a.urls) {
		return nil, usageErrorf("run --agent: %d agents and %d --token-file: give one --token-file per --agent, in the same order "+
			"(an agent's token is sent to that agent only; repeat the file if agents share a token)", len(a.urls), len(a.tokenFiles))
	}
	var opts []agent.ClientOptions
	for i, u := range a.urls {
		token, err := agent.ReadToken(a.tokenFiles[i])
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", u, err)
		}
		o := agent.ClientOptions{Token: token, Driver: driverName(), Logf: logf(stderr)}
		if strings.HasPrefix(u, "https://") {
			if o.TLS, err = agent.ClientTLS(a.ca, a.cert, a.key); err != nil {
				return nil, err
			}
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// runOnAgents runs the experiment with the agents' server sides, generating
// the load from this host: one agent writes one result directory; several
// write one per host and a matrix report (see runMatrix).
func runOnAgents(ctx context.Context, e *lab.Experiment, af agentFlags, results string, stdout, stderr io.Writer) error {
	opts, err := af.clientOptions(stderr)
	if err != nil {
		return err
	}
	if len(af.urls) > 1 {
		return runMatrix(ctx, e, af.urls, opts, results, stdout)
	}
	_, _, err = runOnAgent(ctx, e, af.urls[0], opts[0], results, stdout)
	if err != nil {
		return fmt.Errorf("agent %s: %w", af.urls[0], err)
	}
	return nil
}

// runOnAgent runs the experiment with one agent's server side and writes
// its result directory under results.
func runOnAgent(ctx context.Context, e *lab.Experiment, u string, o agent.ClientOptions, results string, stdout io.Writer) (*lab.Run, string, error) {
	c, err := agent.NewClient(u, o)
	if err != nil {
		return nil, "", usageErrorf("%v", err)
	}
	if err := c.Open(ctx); err != nil {
		return nil, "", err
	}
	closed := false
	defer func() {
		if !closed {
			_ = c.Close(context.WithoutCancel(ctx))
		}
	}()
	host, target, err := c.Describe(ctx)
	if err != nil {
		return nil, "", err
	}
	clk := c.Clock()
	fmt.Fprintf(stdout, "agent %s: host %s (%s, %d CPUs), target %s; clock offset %v ± %v\n", u, host.Hostname, host.CPUModel, host.CPUs,
		target.URL, clk.Offset.Round(time.Microsecond), (clk.Delay / 2).Round(time.Microsecond))
	// The session stays open through the run; it is closed before writing,
	// so the agent has restored when the report says so.
	note := func(r *lab.Run) {
		closed = true
		if cerr := c.Close(context.WithoutCancel(ctx)); cerr != nil {
			fmt.Fprintf(stdout, "agent %s: close: %v\n", u, cerr)
		}
		r.Agent = &lab.AgentInfo{URL: u, ClockOffset: clk.Offset, ClockError: clk.Delay / 2}
	}
	return runAndReport(ctx, e, c, target.URL, results, note, stdout)
}

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

func driverName() string {
	h, _ := os.Hostname()
	return fmt.Sprintf("lab run on %s (pid %d)", h, os.Getpid())
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
