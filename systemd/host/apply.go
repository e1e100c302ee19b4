package host

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// dropIn is the name of the drop-in that carries a variant's unit settings.
const dropIn = "50-lab-variant"

// Apply implements lab.Server: it rewrites the PostgREST config from the
// original (never from the previous variant), applies PostgreSQL settings,
// the unit's environment and drop-in settings and binary, restarts what
// needs it (or reloads the config, when every changed key allows it: see
// reloadKeys) and waits until the target is ready.
func (l *Server) Apply(ctx context.Context, v lab.Variant) (lab.Applied, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pgRestarted = false
	var changes []lab.Change
	cc, err := l.applyConfig(v)
	if err != nil {
		return lab.Applied{}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	changes = append(changes, cc...)
	pc, err := l.applyPG(ctx, v)
	if err != nil {
		return lab.Applied{Changes: changes}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	changes = append(changes, pc...)
	uc, err := l.applyUnit(ctx, v)
	if err != nil {
		return lab.Applied{Changes: changes}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	changes = append(changes, uc...)
	changes = append(changes, rtsNote(l.cfg.Reference, v)...)
	ready, note, err := l.activate(ctx, v)
	if err != nil {
		return lab.Applied{Changes: changes}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	return lab.Applied{Changes: append(changes, note...), ReadyAfter: ready}, nil
}

// applyConfig writes original+variant keys through the journal.
func (l *Server) applyConfig(v lab.Variant) ([]lab.Change, error) {
	f, err := configs.Parse(l.cfg.Config, l.original)
	if err != nil {
		return nil, err
	}
	var changes []lab.Change
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(v.PostgREST)) {
		raw := v.PostgREST[key]
		if _, err := capability.PostgRESTKey(key, raw); err != nil { // second line behind lab validate and the agent
			errs = append(errs, err)
			continue
		}
		old, _ := f.Get(key)
		if key == "db-uri" && (raw == "tcp" || raw == "unix") {
			uri, err := configs.DeriveDBURI(old.String(), raw, l.cfg.PG)
			if err != nil {
				errs = append(errs, fmt.Errorf("db-uri = %q: %w", raw, redactErr(err, old.String())))
				continue
			}
			raw = uri
		} else if key == "db-uri" {
			if _, err := configs.Transport(raw); err != nil {
				errs = append(errs, fmt.Errorf("db-uri = %q: %w (allowed: tcp, unix, or a connection URI)", capability.RedactURI(raw), redactErr(err, raw)))
				continue
			}
		}
		if err := configs.ValidateSetting(key, raw, l.cfg.AllowUnknownKeys); err != nil {
			errs = append(errs, err)
			continue
		}
		val, err := configs.ParseValue(key, raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := f.Set(key, val); err != nil {
			errs = append(errs, err)
			continue
		}
		if old.String() != val.String() {
			changes = append(changes, lab.Change{Where: "postgrest", Key: key, From: capability.Redact(key, old.String()), To: capability.Redact(key, val.String())})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return changes, l.journal.WriteFile(l.cfg.Config, f.Bytes())
}

// applyPG resets what a previous variant set and applies this variant's settings.
func (l *Server) applyPG(ctx context.Context, v lab.Variant) ([]lab.Change, error) {
	changes, restart, err := l.pinPG(ctx, v)
	if err != nil {
		return nil, err
	}
	if len(v.PostgreSQL) == 0 && !l.pgDirty {
		if restart {
			return changes, l.restartPG(ctx)
		}
		return changes, nil
	}
	conn, err := l.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	if l.pgDirty {
		need, err := configs.RestorePGSettings(ctx, conn, l.journal)
		if err != nil {
			return nil, err
		}
		restart = restart || need
		l.pgDirty = false
	}
	if len(v.PostgreSQL) > 0 {
		names := slices.Sorted(maps.Keys(v.PostgreSQL))
		before, err := configs.PGSettings(ctx, conn, names)
		if err != nil {
			return nil, err
		}
		need, err := configs.ApplyPGSettings(ctx, conn, l.journal, v.PostgreSQL)
		l.pgDirty = true
		if err != nil {
			return nil, err
		}
		restart = restart || need
		for _, n := range names {
			changes = append(changes, lab.Change{Where: "postgresql", Key: n, From: before[n].Setting, To: v.PostgreSQL[n]})
		}
	}
	if restart {
		conn.Close(ctx)
		if err := l.restartPG(ctx); err != nil {
			return changes, err
		}
	}
	return changes, nil
}

// applyUnit sets the variant's environment, drop-in settings and binary.
// The environment goes to the controller as a list of assignments, never
// joined into a line that is parsed again.
func (l *Server) applyUnit(ctx context.Context, v lab.Variant) ([]lab.Change, error) {
	var changes []lab.Change
	settings := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(v.DropIn)) {
		settings[k] = v.DropIn[k]
		changes = append(changes, lab.Change{Where: "dropin", Key: k, To: v.DropIn[k]})
	}
	var env []string
	for _, k := range slices.Sorted(maps.Keys(v.Env)) {
		if _, _, err := capability.Env(k, v.Env[k]); err != nil {
			return nil, err
		}
		env = append(env, k+"="+v.Env[k])
		changes = append(changes, lab.Change{Where: "env", Key: k, To: capability.RedactEnv(k, v.Env[k])})
	}
	switch {
	case len(settings) > 0:
		if err := l.cfg.Ctl.SetDropIn(ctx, l.cfg.TargetUnit, dropIn, settings); err != nil {
			return nil, err
		}
		l.dropinSet = true
	case l.dropinSet:
		if err := l.cfg.Ctl.RemoveDropIn(ctx, l.cfg.TargetUnit, dropIn); err != nil {
			return nil, err
		}
		l.dropinSet = false
		l.envSet = false // RemoveDropIn removes the environment too
	}
	if len(env) > 0 || l.envSet {
		if err := l.cfg.Ctl.SetEnvironment(ctx, l.cfg.TargetUnit, dropIn, env); err != nil {
			return nil, err
		}
		l.envSet = len(env) > 0
	}
	rtsArgs, rtsChanges := l.ghcStatsArgs()
	if v.Binary != "" || len(v.Args) > 0 || l.specDirty || rtsArgs != nil {
		if l.cfg.TargetSpec == nil {
			return nil, fmt.Errorf("binary/args: the lab did not create unit %s, so it cannot swap its executable (use a drop-in with ExecStart instead)", l.cfg.TargetUnit)
		}
		spec := *l.cfg.TargetSpec
		argv := []string{spec.ExecStart[0]}
		if v.Binary != "" {
			argv[0] = v.Binary
			changes = append(changes, lab.Change{Where: "binary", Key: "ExecStart", From: spec.ExecStart[0], To: v.Binary})
		}
		argv = append(argv, v.Args...)
		if len(v.Args) > 0 {
			changes = append(changes, lab.Change{Where: "binary", Key: "args", To: strings.Join(v.Args, " ")})
		}
		argv = append(argv, rtsArgs...)
		changes = append(changes, rtsChanges...)
		spec.ExecStart = append(argv, spec.ExecStart[1:]...)
		if err := l.cfg.Ctl.Install(ctx, spec); err != nil {
			return nil, err
		}
		l.specDirty = v.Binary != "" || len(v.Args) > 0 || rtsArgs != nil
	}
	return changes, nil
}

// redactErr is err with a secret it may quote replaced.
func redactErr(err error, secret string) error {
	if secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), secret, capability.RedactURI(secret)))
}

var _ lab.Server = (*Server)(nil)
