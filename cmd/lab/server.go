package main

import (
	"context"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd/supervisor"
)

// stackServer opens (or brings up) the local stack, makes sure the fixture
// is loaded, and returns the server side over it with its target URL.
func stackServer(ctx context.Context, dir, postgrest string, e *lab.Experiment, out io.Writer) (*reconcile.Server, string, func(), error) {
	s, err := stack.Open(dir)
	var st stack.Status
	if err == nil {
		st, err = s.Status(ctx)
	}
	if err != nil || !st.Running() || st.Target == nil {
		if s != nil {
			s.Close()
		}
		fmt.Fprintf(out, "bringing up the local stack in %s\n", dir)
		if s, err = stack.Up(ctx, stack.Options{Dir: dir, Postgrest: postgrest, Progress: out}); err != nil {
			return nil, "", nil, fmt.Errorf("stack up: %w", err)
		}
		if st, err = s.Status(ctx); err != nil {
			s.Close()
			return nil, "", nil, err
		}
	}
	if st.Target == nil {
		s.Close()
		return nil, "", nil, fmt.Errorf("the stack in %s runs no target: %s", dir, st.NoTarget)
	}
	if _, err := fixture.EnsureChinook(ctx, st.AdminURI, func(msg string) { fmt.Fprintln(out, msg) }); err != nil { // no artist table yet: the generated set
		s.Close()
		return nil, "", nil, err
	}
	cfg := stackLocalConfig(s, st, out)
	cfg.AllowUnknownKeys = e.AllowUnknownKeys
	cfg.Profile = e.Profile
	if e.Trials.Order == lab.OrderDuet {
		cfg.ApplicationName = duetApplicationNames[0]
	}
	l, err := reconcile.New(ctx, cfg)
	if err != nil {
		s.Close()
		return nil, "", nil, err
	}
	return l, st.URL, func() { l.Close(); s.Close() }, nil
}

// stackLocalConfig is what the server side may touch in a local stack.
func stackLocalConfig(s *stack.Stack, st stack.Status, out io.Writer) reconcile.Config {
	spec := s.TargetSpec()
	return reconcile.Config{
		Ctl: st.Controller, StateDir: st.Dir, Config: st.Config, TargetUnit: st.Target.Name, TargetSpec: &spec, TargetUser: st.TargetUser,
		PGUnit: st.Postgres.Name, PG: configs.PGAddr{Host: st.PGHost, Port: st.PGPort, SocketDir: st.PGSocketDir},
		AdminURI: st.AdminURI, URL: st.URL, AdminURL: st.AdminURL, Binary: st.Binary, Reference: st.Reference,
		Logf: logf(out),
	}
}

// duetApplicationNames tell a duet's halves' PostgreSQL backends apart.
var duetApplicationNames = [2]string{"pgrst-lab-a", "pgrst-lab-b"}

// stackDuet is a duet's two halves on the local stack in dir: a (the
// target's server side, from stackServer, and its URL) and the stack's
// twin, started now with a copy of the target's config.
func stackDuet(ctx context.Context, dir string, a *reconcile.Server, aURL string, e *lab.Experiment, out io.Writer) (*lab.Duet, func(), error) {
	s, err := stack.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(out, "duet: starting the stack's twin target\n")
	tw, err := s.Twin(ctx)
	if err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("duet: %w", err)
	}
	st, err := s.Status(ctx)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	cfg := stackLocalConfig(s, st, out)
	cfg.StateDir, cfg.Config, cfg.TargetUnit, cfg.TargetSpec = tw.StateDir, tw.Config, tw.Unit, &tw.Spec
	cfg.URL, cfg.AdminURL = tw.URL, tw.AdminURL
	cfg.PGUnit = "" // PostgreSQL is half a's: the twin's side never restarts it
	cfg.AllowUnknownKeys, cfg.ApplicationName = e.AllowUnknownKeys, duetApplicationNames[1]
	b, err := reconcile.New(ctx, cfg)
	if err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("duet: the twin's server side: %w", err)
	}
	d := &lab.Duet{Halves: [2]lab.Server{a, b}, Loaders: [2]lab.Loader{loader(aURL), loader(tw.URL)}}
	return d, func() { b.Close(); s.Close() }, nil
}

// targetServer is the server side for an existing server named in the
// experiment's [target] table (unit, config, URL), e.g. a real PostgREST
// managed by systemd on this machine.
func targetServer(ctx context.Context, stateDir string, e *lab.Experiment, out io.Writer) (*reconcile.Server, string, func(), error) {
	t := e.Target
	if t.Unit == "" || t.Config == "" || t.URL == "" {
		return nil, "", nil, fmt.Errorf("%s: [target] needs unit, config and url for an existing server (or none of them for the local stack)", e.Source)
	}
	ctl, err := supervisor.Connect(ctx, supervisor.Options{StateDir: stateDir, Logf: logf(out)})
	if err != nil {
		return nil, "", nil, err
	}
	var pg configs.PGAddr
	if t.PGURI != "" {
		if pg, err = configs.QueryPGAddr(ctx, t.PGURI); err != nil {
			err = fmt.Errorf("target.pg_uri: %w", err)
			ctl.Close()
			return nil, "", nil, err
		}
	}
	l, err := reconcile.New(ctx, reconcile.Config{Ctl: ctl, StateDir: stateDir, Config: t.Config, TargetUnit: t.Unit,
		PGUnit: t.PGUnit, PG: pg, AdminURI: t.PGURI, URL: t.URL, AdminURL: t.AdminURL, AllowUnknownKeys: e.AllowUnknownKeys, Profile: e.Profile, Logf: logf(out)})
	if err != nil {
		ctl.Close()
		return nil, "", nil, err
	}
	return l, t.URL, func() { l.Close(); ctl.Close() }, nil
}

func logf(w io.Writer) func(string, ...any) {
	return func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
}
