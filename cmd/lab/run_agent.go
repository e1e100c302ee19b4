package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/agent"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
)

// agentFlags are `lab run`'s flags for remote server sides.
type agentFlags struct {
	urls, tokenFiles []string
	ca, cert, key    string
	plaintext        bool
}

func (a *agentFlags) add(fs interface {
	Func(name, usage string, fn func(string) error)
	StringVar(p *string, name, value, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
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
	fs.BoolVar(&a.plaintext, "allow-plaintext", false, "send the token over http:// to an agent that is not on loopback (in clear)")
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
		o := agent.ClientOptions{Token: token, Driver: driverName(), Logf: logf(stderr), AllowPlaintext: a.plaintext}
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
// write one per host and a matrix report (session.Matrix).
func runOnAgents(ctx context.Context, e *lab.Experiment, af agentFlags, results string, stdout, stderr io.Writer) error {
	opts, err := af.clientOptions(stderr)
	if err != nil {
		return err
	}
	if e.Trials.Order == lab.OrderDuet {
		// A duet needs the stack's twin next to the target; an agent
		// serves one target.
		fmt.Fprintf(stdout, "%s: an agent serves one target, so its variants run interleaved instead of as a duet\n", e.Name)
		e.Trials.Order = lab.OrderInterleaved
	}
	if len(af.urls) > 1 {
		m := &session.Matrix{Experiment: e, Driver: reconcile.DescribeHost(ctx), Results: results, Out: stdout}
		for i, u := range af.urls {
			m.Hosts = append(m.Hosts, remote{url: u, opts: opts[i]})
		}
		return m.Run(ctx)
	}
	_, err = remote{url: af.urls[0], opts: opts[0]}.Run(ctx, e, results, stdout)
	if err != nil {
		return fmt.Errorf("agent %s: %w", af.urls[0], err)
	}
	return nil
}

// remote is a host of a matrix (session.Remote): the server side a
// `lab agent` serves.
type remote struct {
	url  string
	opts agent.ClientOptions
}

func (r remote) URL() string { return r.url }

// Describe asks the agent what host and target it serves (no session).
func (r remote) Describe(ctx context.Context) (lab.Host, error) {
	c, err := agent.NewClient(r.url, r.opts)
	if err != nil {
		return lab.Host{}, err
	}
	h, _, err := c.Describe(ctx)
	return h, err
}

// Run runs the experiment with the agent's server side and writes its
// result directory under results.
func (r remote) Run(ctx context.Context, e *lab.Experiment, results string, stdout io.Writer) (*session.Result, error) {
	u := r.url
	c, err := agent.NewClient(u, r.opts)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	if err := c.Open(ctx); err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			_ = c.Close(context.WithoutCancel(ctx))
		}
	}()
	h, target, err := c.Describe(ctx)
	if err != nil {
		return nil, err
	}
	clk := c.Clock()
	fmt.Fprintf(stdout, "agent %s: host %s (%s, %d CPUs), target %s; clock offset %v ± %v\n", u, h.Hostname, h.CPUModel, h.CPUs,
		target.URL, clk.Offset.Round(time.Microsecond), (clk.Delay / 2).Round(time.Microsecond))
	// The session stays open through the run; it is closed before writing,
	// so the agent has restored when the report says so.
	note := func(run *lab.Run) {
		closed = true
		if cerr := c.Close(context.WithoutCancel(ctx)); cerr != nil {
			fmt.Fprintf(stdout, "agent %s: close: %v\n", u, cerr)
		}
		run.Agent = &lab.AgentInfo{URL: u, ClockOffset: clk.Offset, ClockError: clk.Delay / 2}
	}
	return runAndReport(ctx, session.Options{Experiment: e, Server: c, Loader: loader(target.URL), Results: results, Note: note}, stdout)
}

func driverName() string {
	h, _ := os.Hostname()
	return fmt.Sprintf("lab run on %s (pid %d)", h, os.Getpid())
}
