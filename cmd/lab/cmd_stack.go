package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
)

func init() {
	register(command{name: "stack", summary: "bring the local PostgreSQL + PostgREST stack up or down, or show it", run: cmdStack})
}

const stackUsage = `stack up|down|status [flags]

  up      start PostgreSQL and the target (PostgREST, else postgrest-mini); reuses what runs
  down    stop and remove the stack's units (keeps the data unless --purge)
  status  show supervisor, units, PIDs, ports, socket and URLs (--json for scripts)`

// stackFlags are the flags of `lab stack`; up uses most, down --purge, status --json.
type stackFlags struct {
	opts  stack.Options
	purge bool
	json  bool
}

func newStackFlags(stdout io.Writer) (*flag.FlagSet, *stackFlags) {
	fs := newFlags("stack", stackUsage, stdout)
	sf := &stackFlags{}
	fs.StringVar(&sf.opts.Dir, "dir", stack.DefaultDir, "state directory of the stack")
	fs.StringVar((*string)(&sf.opts.Supervisor), "supervisor", "", "up: auto, systemd or direct (default $LAB_SUPERVISOR, else auto)")
	fs.StringVar(&sf.opts.Postgrest, "postgrest", "", "up: target binary (default: postgrest on PATH, else postgrest-mini)")
	fs.StringVar(&sf.opts.TargetUser, "target-user", "", "up, as root: the unprivileged user the target runs as (default $LAB_TARGET_USER, else postgrest, created when missing)")
	fs.BoolVar(&sf.opts.NoTarget, "no-target", false, "up: start PostgreSQL only")
	fs.IntVar(&sf.opts.PGPort, "pg-port", 0, "up: PostgreSQL TCP port (default: the stack's, else a free one)")
	fs.IntVar(&sf.opts.Port, "port", 0, "up: target's server-port (default: the stack's, else a free one)")
	fs.IntVar(&sf.opts.AdminPort, "admin-port", 0, "up: target's admin-server-port (default: the stack's, else a free one)")
	fs.BoolVar(&sf.purge, "purge", false, "down: also remove the data directory and everything else the lab put in --dir")
	fs.BoolVar(&sf.json, "json", false, "status: print JSON")
	return fs, sf
}

// splitSub takes the subcommand from the first argument that is not a flag.
func splitSub(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}

func cmdStack(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, sf := newStackFlags(stdout)
	sub, rest := splitSub(args)
	if help, err := parseFlags(fs, rest); help || err != nil {
		return err
	}
	if sub == "" && fs.NArg() > 0 {
		sub, rest = fs.Arg(0), fs.Args()[1:]
		if help, err := parseFlags(fs, rest); help || err != nil {
			return err
		}
	}
	if fs.NArg() > 0 {
		return usageErrorf("stack %s: unexpected argument %q", sub, fs.Arg(0))
	}
	switch sub {
	case "up":
		sf.opts.Progress = stderr
		s, err := stack.Up(ctx, sf.opts)
		if err != nil {
			return fmt.Errorf("stack up: %w", err)
		}
		defer s.Close()
		if _, err := recoverStack(ctx, s, stderr); err != nil {
			return fmt.Errorf("stack up: restore what an interrupted run left: %w", err)
		}
		return printStatus(ctx, s, stdout, false)
	case "down":
		s, err := stack.Open(sf.opts.Dir)
		if err != nil {
			return fmt.Errorf("stack down: %w", err)
		}
		defer s.Close()
		units := s.Facts().Installed
		if err := s.Down(ctx, sf.purge); err != nil {
			return fmt.Errorf("stack down: %w", err)
		}
		if len(units) == 0 {
			fmt.Fprintf(stdout, "nothing was running in %s\n", s.Dir())
		} else {
			fmt.Fprintf(stdout, "stopped and removed %s\n", strings.Join(units, ", "))
		}
		if sf.purge {
			fmt.Fprintf(stdout, "purged %s\n", s.Dir())
		}
		return nil
	case "status":
		s, err := stack.Open(sf.opts.Dir)
		if err != nil {
			return fmt.Errorf("stack status: %w", err)
		}
		defer s.Close()
		return printStatus(ctx, s, stdout, sf.json)
	case "":
		return usageErrorf("stack: say up, down or status")
	}
	return usageErrorf("stack %q: allowed: up, down, status", sub)
}

func printStatus(ctx context.Context, s *stack.Stack, w io.Writer, asJSON bool) error {
	st, err := s.Status(ctx)
	if err != nil {
		return fmt.Errorf("stack status: %w", err)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	fmt.Fprintf(w, "stack in %s\n  supervisor  %s\n", st.Dir, st.Description)
	fmt.Fprintf(w, "  postgres    %s  %s  pid %d\n", st.Postgres.Name, st.Postgres.State, st.Postgres.PID)
	fmt.Fprintf(w, "              tcp     %s\n", st.TCPURI)
	fmt.Fprintf(w, "              socket  %s\n", st.UnixURI)
	fmt.Fprintf(w, "              admin   %s\n", st.AdminURI)
	if st.Target == nil {
		fmt.Fprintf(w, "  target      none: %s\n", st.NoTarget)
		return nil
	}
	kind := "PostgREST"
	if st.Reference {
		kind = "reference server, not PostgREST"
	}
	fmt.Fprintf(w, "  target      %s  %s  pid %d\n", st.Target.Name, st.Target.State, st.Target.PID)
	fmt.Fprintf(w, "              binary  %s (%s)\n", st.Binary, kind)
	fmt.Fprintf(w, "              user    %s\n", st.TargetUser)
	fmt.Fprintf(w, "              url     %s   admin %s\n", st.URL, st.AdminURL)
	fmt.Fprintf(w, "              config  %s\n", st.Config)
	if st.Twin != nil {
		fmt.Fprintf(w, "  twin        %s  %s  pid %d  (duet runs)\n", st.Twin.Name, st.Twin.State, st.Twin.PID)
		fmt.Fprintf(w, "              url     %s\n", st.TwinURL)
	}
	return nil
}
