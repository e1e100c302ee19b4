package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
)

func init() {
	register(command{name: "validate", summary: "check experiment files (all bundled ones if none given)", run: cmdValidate})
}

func cmdValidate(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("validate", "validate [--postgrest BIN | --target-version V] [FILE|NAME...]", stdout)
	bin := fs.String("postgrest", "", "also check the keys against this PostgREST binary's version (its --version)")
	version := fs.String("target-version", "", "also check the keys against this PostgREST `version` (e.g. 14.17)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *bin != "" {
		line, err := reconcile.BinaryVersion(ctx, *bin)
		if *version = postgrest.VersionOf(line); err != nil || *version == "" {
			return fmt.Errorf("validate --postgrest %s: cannot read its PostgREST version (%v, %q)", *bin, err, line)
		}
	}
	targets := fs.Args()
	if len(targets) == 0 {
		targets = experiments.Names()
	}
	bad := 0
	for _, t := range targets {
		e, err := experiments.LoadWith(t, postgrestKeysAt(*version))
		if err == nil {
			err = trial.CheckRequests(e)
		}
		if err != nil {
			bad++
			fmt.Fprintln(stdout, textsafe.Lines(err.Error())) // it may quote the file
			continue
		}
		textsafe.Fprintf(stdout, "%s: OK (%s)\n", t, estimate(e))
		if r := e.Suits(); len(r.SupportedIn()) < len(postgrest.Supported) { // only when it leaves a release out
			textsafe.Fprintf(stdout, "  suits %s: %s; of the releases the lab tests: %s\n", r, strings.Join(r.Why, ", "), cmp.Or(strings.Join(r.SupportedIn(), ", "), "none"))
		}
		if n := e.Target.Touches(); n != "" {
			textsafe.Fprintf(stdout, "  [target]: %s\n", n)
		}
		if slices.ContainsFunc(e.Actions, func(a lab.Action) bool { return a.Do == "sql" }) { // as powerful as [target]
			fmt.Fprintln(stdout, "  [[action]]: runs the file's SQL as the PostgreSQL superuser during trials")
		}
		if w := stats.Reach(e); w != "" { // a warning: the run still runs, and measures
			fmt.Fprintf(stdout, "  warning: [trials]: %s\n", w)
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d experiments have problems", bad, len(targets))
	}
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// experimentSource is the experiment file format the session reads
// experiments through: bundled names and files, their PostgREST keys
// checked at the right line, $(VAR)s resolved.
var experimentSource = session.Source{
	Read:   func(name string) (*lab.Experiment, error) { return experiments.LoadWith(name, postgrestKeys) },
	Expand: experiments.Expand,
	Lines:  trial.TargetLines,
}

// postgrestKeys checks variants' PostgREST keys against the configs
// catalogue, in the form experiments reports at the right line.
func postgrestKeys(key, value string, allowUnknown bool) error {
	return postgrestKeysAt("")(key, value, allowUnknown)
}

// postgrestKeysAt is postgrestKeys for a target of PostgREST version v
// ("" when unknown): a key v lacks names the version that has it.
func postgrestKeysAt(v string) experiments.KeyValidator {
	return func(key, value string, allowUnknown bool) error { return checkKeyAt(key, value, v, allowUnknown) }
}

func checkKeyAt(key, value, v string, allowUnknown bool) error {
	err := configs.ValidateSettingAt(key, value, v, allowUnknown)
	if _, byVersion := errors.AsType[*postgrest.VersionError](err); byVersion {
		return err
	}
	var ke *configs.KeyError
	if !errors.As(err, &ke) {
		return err
	}
	if _, known := postgrest.Lookup(key); !known && !allowUnknown {
		return &experiments.UnknownKey{Key: key, Suggest: ke.Suggest}
	}
	msg := ke.Msg
	if len(ke.Allowed) > 0 {
		msg += " (allowed: " + strings.Join(ke.Allowed, ", ") + ")"
	}
	return errors.New(msg)
}

// estimate is stats.Estimate with the load generator's search rule.
func estimate(e *lab.Experiment) string {
	b := e.Bound(trial.Rule{})
	return stats.Estimate(e, b, e.Typical(b, trial.Rule{}))
}
