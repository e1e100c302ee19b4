package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"os"

	"github.com/pgrst-lab/pgrst-lab/host/agent"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

func init() {
	register(command{name: "agent", summary: "serve this host's target to `lab run --agent` on another host", run: cmdAgent})
}

const agentUsage = `agent --config AGENT.toml [flags]

Runs the lab's server side for drivers on other hosts (lab run --agent URL):
rewrites the target's config, restarts its units, samples telemetry and
restores the original when the driver is done or gone (its lease expires).
What it may touch is fixed by AGENT.toml ([stack] dir, or [target] unit,
config, url, pg_uri; [allow] lists), never by a request. Every request needs
the bearer token; listens on 127.0.0.1 unless told otherwise, and only with
TLS (--cert/--key) on other addresses. Stops on SIGINT/SIGTERM, restoring
first. See systemd/units/lab-agent.service.`

func cmdAgent(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("agent", agentUsage, stdout)
	config := fs.String("config", "", "the agent's config (AGENT.toml), required")
	listen := fs.String("listen", "", "address to listen on (default: config's listen, else "+agent.DefaultListen+")")
	tokenFile := fs.String("token-file", "", "bearer token file, mode 0600 (default: config's token_file)")
	cert := fs.String("cert", "", "TLS certificate (default: config's [tls] cert)")
	key := fs.String("key", "", "TLS key")
	clientCA := fs.String("client-ca", "", "require client certificates signed by this CA")
	plaintext := fs.Bool("allow-plaintext", false, "allow plain HTTP on a non-loopback address (the token crosses the network in clear)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *config == "" || fs.NArg() > 0 {
		return usageErrorf("agent: give --config AGENT.toml (and no arguments)")
	}
	cfg, err := agent.LoadConfig(*config)
	if err != nil {
		return err
	}
	override := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	override(&cfg.Listen, *listen)
	override(&cfg.TokenFile, *tokenFile)
	override(&cfg.TLS.Cert, *cert)
	override(&cfg.TLS.Key, *key)
	override(&cfg.TLS.ClientCA, *clientCA)
	cfg.AllowPlaintext = cfg.AllowPlaintext || *plaintext
	if cfg.TokenFile == "" {
		return usageErrorf("agent: no token: give --token-file or token_file in %s", cfg.File)
	}
	token, err := agent.ReadToken(cfg.TokenFile)
	if err != nil {
		return err
	}
	var tc *tls.Config
	if cfg.TLS.Enabled() || cfg.TLS.ClientCA != "" {
		if tc, err = agent.ServerTLS(cfg.TLS); err != nil {
			return err
		}
	}
	ln, err := agent.Listen(ctx, cfg.Listen, tc != nil, cfg.AllowPlaintext)
	if err != nil {
		return err
	}
	defer ln.Close()

	srv, targetURL, closeFn, err := agentServer(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer closeFn()
	// A variant's roles are checked against the original's; the original
	// itself must not be a superuser's either.
	if err := srv.CheckOriginalRoles(ctx); err != nil {
		return fmt.Errorf("agent: refusing to serve the target: %w", err)
	}
	advertise, err := cfg.Advertised(targetURL)
	if err != nil {
		return err
	}
	if warn := cfg.Unreachable(targetURL, advertise); warn != "" {
		fmt.Fprintln(stderr, "warning:", warn)
	}
	cfg.Allow.AllowUnknownKeys = cfg.AllowUnknownKeys
	h, err := agent.NewHandler(srv, agent.Options{Token: token, Policy: cfg.Allow, Lease: cfg.Lease, AdvertiseURL: advertise,
		HostID: cfg.HostID, Version: labVersion(), Secrets: srv.Secrets(), Logf: logf(stderr)})
	if err != nil {
		return err
	}
	scheme := "http"
	if tc != nil {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "lab agent %s: listening on %s://%s (API %s); target %s (drivers use %s)\n",
		labVersion(), scheme, ln.Addr(), agent.APIVersion, targetURL, advertise)
	return agent.Serve(ctx, ln, h, tc)
}

// agentServer is the server side the agent's config names: a local stack
// (brought up when it does not run) or an existing server.
func agentServer(ctx context.Context, cfg *agent.Config, out io.Writer) (*reconcile.Server, string, func(), error) {
	e := &lab.Experiment{Source: cfg.File}
	if cfg.Stack.Dir != "" {
		return stackServer(ctx, cfg.Stack.Dir, "", e, out)
	}
	e.Target = cfg.Target.Target()
	state := cfg.StateDir
	if state == "" {
		state = os.Getenv("STATE_DIRECTORY") // systemd's StateDirectory=
	}
	if state == "" {
		return nil, "", nil, fmt.Errorf("%s: state_dir is needed for a [target] (where the journal of changed files lives)", cfg.File)
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		return nil, "", nil, fmt.Errorf("state_dir: %w", err)
	}
	return targetServer(ctx, state, e, out)
}
