package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/cmd/internal/agent"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// agentFlags are `lab run`'s flags for remote server sides.
type agentFlags struct {
	urls                     []string
	tokenFile, ca, cert, key string
}

func (a *agentFlags) add(fs interface {
	Func(name, usage string, fn func(string) error)
	StringVar(p *string, name, value, usage string)
}) {
	fs.Func("agent", "run against `lab agent` at this URL (repeat for several hosts); load is generated here", func(s string) error {
		a.urls = append(a.urls, s)
		return nil
	})
	fs.StringVar(&a.tokenFile, "token-file", "", "the agents' bearer token file (mode 0600)")
	fs.StringVar(&a.ca, "ca", "", "CA certificate the agents' TLS certificates are signed by")
	fs.StringVar(&a.cert, "cert", "", "client certificate, for agents that require one")
	fs.StringVar(&a.key, "key", "", "client certificate's key")
}

// runOnAgents runs the experiment once per agent, generating the load from
// this host, and writes one result directory per host.
func runOnAgents(ctx context.Context, e *lab.Experiment, af agentFlags, results string, stdout, stderr io.Writer) error {
	if af.tokenFile == "" {
		return usageErrorf("run --agent: give --token-file (the agent's bearer token)")
	}
	token, err := agent.ReadToken(af.tokenFile)
	if err != nil {
		return err
	}
	var opts []agent.ClientOptions
	for _, u := range af.urls {
		o := agent.ClientOptions{Token: token, Driver: driverName(), Logf: logf(stderr)}
		if strings.HasPrefix(u, "https://") {
			if o.TLS, err = agent.ClientTLS(af.ca, af.cert, af.key); err != nil {
				return err
			}
		}
		opts = append(opts, o)
	}
	var runs []*lab.Run
	var labels, dirs []string
	var errs []error
	used := map[string]int{}
	label := func(h lab.Host, u string) string {
		l := hostLabel(h, u)
		used[l]++
		if n := used[l]; n > 1 {
			l = fmt.Sprintf("%s-%d", l, n)
		}
		return l
	}
	for i, u := range af.urls {
		if len(af.urls) == 1 {
			label = nil
		}
		run, l, dir, err := runOnAgent(ctx, e, u, opts[i], results, label, stdout)
		if run != nil && dir != "" {
			runs, labels, dirs = append(runs, run), append(labels, l), append(dirs, dir)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("agent %s: %w", u, err))
			if ctx.Err() != nil {
				break
			}
		}
	}
	if len(runs) > 1 {
		compareHosts(stdout, runs, labels)
		if err := hostVerdicts(results, runs, labels, dirs, stdout); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// runOnAgent runs the experiment with one agent's server side. With label
// set (several hosts), results go to RESULTS/<label>/; label is returned.
func runOnAgent(ctx context.Context, e *lab.Experiment, u string, o agent.ClientOptions, results string, label func(lab.Host, string) string, stdout io.Writer) (*lab.Run, string, string, error) {
	c, err := agent.NewClient(u, o)
	if err != nil {
		return nil, "", "", usageErrorf("%v", err)
	}
	if err := c.Open(ctx); err != nil {
		return nil, "", "", err
	}
	closed := false
	defer func() {
		if !closed {
			_ = c.Close(context.WithoutCancel(ctx))
		}
	}()
	host, target, err := c.Describe(ctx)
	if err != nil {
		return nil, "", "", err
	}
	clk := c.Clock()
	fmt.Fprintf(stdout, "agent %s: host %s (%s, %d CPUs), target %s; clock offset %v ± %v\n", u, host.Hostname, host.CPUModel, host.CPUs,
		target.URL, clk.Offset.Round(time.Microsecond), (clk.Delay / 2).Round(time.Microsecond))
	// The session stays open through the run; it is closed before writing,
	// so the agent has restored when the report says so.
	dir, l := results, ""
	if label != nil {
		l = label(host, u)
		dir = filepath.Join(results, l)
	}
	note := func(r *lab.Run) {
		closed = true
		if cerr := c.Close(context.WithoutCancel(ctx)); cerr != nil {
			fmt.Fprintf(stdout, "agent %s: close: %v\n", u, cerr)
		}
		r.Agent = &lab.AgentInfo{URL: u, ClockOffset: clk.Offset, ClockError: clk.Delay / 2}
	}
	run, out, err := runAndReport(ctx, e, c, target.URL, dir, note, stdout)
	return run, l, out, err
}

// hostLabel names a host's result directory: its hostname, else the agent's host.
func hostLabel(h lab.Host, agentURL string) string {
	name := h.Hostname
	if name == "" {
		if u, err := url.Parse(agentURL); err == nil {
			name = u.Hostname()
		}
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < 0x20 {
			return '_'
		}
		return r
	}, name)
}

func driverName() string {
	h, _ := os.Hostname()
	return fmt.Sprintf("lab run on %s (pid %d)", h, os.Getpid())
}

// compareHosts prints, per variant and scenario, each host's median rate
// and p99 over its successful trials.
func compareHosts(w io.Writer, runs []*lab.Run, labels []string) {
	fmt.Fprintln(w, "\nhosts compared (median over trials):")
	fmt.Fprintf(w, "  %-14s %-18s", "variant", "scenario")
	for _, l := range labels {
		fmt.Fprintf(w, " %26s", trunc(l, 26))
	}
	fmt.Fprintln(w)
	for _, v := range runs[0].Variants {
		for _, sc := range runs[0].Experiment.Scenarios {
			fmt.Fprintf(w, "  %-14s %-18s", trunc(v.Name, 14), trunc(sc, 18))
			for _, r := range runs {
				rate, p99, n := medians(r, v.Name, sc)
				if n == 0 {
					fmt.Fprintf(w, " %26s", "-")
					continue
				}
				fmt.Fprintf(w, " %26s", fmt.Sprintf("%.0f req/s p99 %.2f ms", rate, p99))
			}
			fmt.Fprintln(w)
		}
	}
}

func medians(r *lab.Run, variant, scenario string) (rate, p99 float64, n int) {
	var rates, p99s []float64
	for _, t := range r.Trials {
		if t.Variant == variant && t.Scenario == scenario && t.Error == "" {
			rates, p99s = append(rates, t.Load.Rate), append(p99s, t.Load.LatencyMs.P99)
		}
	}
	return stats.Median(rates), stats.Median(p99s), len(rates)
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// hostVerdicts compares every host with the first, variant by variant, with
// the same statistics as `lab compare`, and writes each comparison as
// RESULTS/hosts-<host>-vs-<first>.md.
func hostVerdicts(results string, runs []*lab.Run, labels, dirs []string, stdout io.Writer) error {
	a := report.Compared{Label: labels[0], Dir: dirs[0], Run: runs[0]}
	for i := 1; i < len(runs); i++ {
		b := report.Compared{Label: labels[i], Dir: dirs[i], Run: runs[i]}
		v := stats.CompareRuns(a.Run, b.Run, a.Label, b.Label, 0)
		fmt.Fprintln(stdout)
		report.CompareTerminal(stdout, a, b, v)
		var md bytes.Buffer
		if err := report.CompareMarkdown(&md, a, b, v); err != nil {
			return err
		}
		name := filepath.Join(results, fmt.Sprintf("hosts-%s-vs-%s.md", b.Label, a.Label))
		if err := os.WriteFile(name, md.Bytes(), 0o644); err != nil {
			return fmt.Errorf("host comparison: %w", err)
		}
		fmt.Fprintf(stdout, "host comparison: %s\n", name)
	}
	return nil
}
