package reconcile

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// intent is what a variant asks for: the applied value it wants, and its
// changes against the original that the report lists with it (the
// PostgreSQL ones the executor adds: their From is read from the server).
type intent struct {
	want   applied
	config []lab.Change // PostgREST keys
	unit   []lab.Change // drop-in, environment, binary, arguments and notes
}

// wanted computes the applied value a variant wants from the original
// config, validating what it sets (a second line behind lab validate and
// the agent). Nothing is touched.
func (l *Server) wanted(v lab.Variant) (intent, error) {
	var in intent
	var err error
	if in.want.config, in.config, err = l.wantedConfig(v); err != nil {
		return intent{}, err
	}
	for _, k := range slices.Sorted(maps.Keys(v.PostgreSQL)) {
		if err := capability.PostgreSQL(k, v.PostgreSQL[k]); err != nil {
			return intent{}, err
		}
	}
	if len(v.PostgreSQL) > 0 {
		in.want.pg.set = maps.Clone(v.PostgreSQL)
	}
	if err := capability.Args(v.Args); err != nil {
		return intent{}, err
	}
	if v.PGCPUAffinity != "" {
		if l.cfg.PGUnit == "" {
			return intent{}, fmt.Errorf("partition.postgresql: no PostgreSQL unit is known to pin (set target.pg_unit)")
		}
		if err := capability.PGCPUAffinity(v.PGCPUAffinity); err != nil {
			return intent{}, err
		}
		in.want.pgPin = v.PGCPUAffinity
	}
	for _, k := range slices.Sorted(maps.Keys(v.DropIn)) {
		if in.want.dropIn == nil {
			in.want.dropIn = map[string]string{}
		}
		in.want.dropIn[k] = v.DropIn[k]
		in.unit = append(in.unit, lab.Change{Where: "dropin", Key: k, To: v.DropIn[k]})
	}
	for _, k := range slices.Sorted(maps.Keys(v.Env)) {
		if _, _, err := capability.Env(k, v.Env[k]); err != nil {
			return intent{}, err
		}
		in.want.env = append(in.want.env, k+"="+v.Env[k])
		in.unit = append(in.unit, lab.Change{Where: "env", Key: k, To: capability.RedactEnv(k, v.Env[k])})
	}
	argv, changes, err := l.wantedArgv(v)
	if err != nil {
		return intent{}, err
	}
	in.want.argv = argv
	in.unit = append(in.unit, changes...)
	if v.Unsandboxed {
		if l.cfg.TargetSpec == nil || l.cfg.TargetSpec.Sandbox == nil {
			return intent{}, fmt.Errorf("sandbox = false: the target %s runs in no sandbox of the lab's", l.cfg.TargetUnit)
		}
		in.want.unsandboxed = true
		in.unit = append(in.unit, lab.Change{Where: "unit", Key: "sandbox", From: "on", To: "off"})
	}
	in.unit = append(in.unit, rtsNote(l.cfg.Reference, v)...)
	return in, nil
}

// wantedConfig is the original config with the variant's PostgREST keys.
func (l *Server) wantedConfig(v lab.Variant) ([]byte, []lab.Change, error) {
	f, err := configs.Parse(l.cfg.Config, l.original)
	if err != nil {
		return nil, nil, err
	}
	var changes []lab.Change
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(v.PostgREST)) {
		raw := v.PostgREST[key]
		if _, err := capability.PostgRESTKey(key, raw); err != nil {
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
		return nil, nil, errors.Join(errs...)
	}
	if err := l.nameBackends(f); err != nil {
		return nil, nil, err
	}
	return f.Bytes(), changes, nil
}

// wantedArgv is the target's command line: the variant's binary and
// arguments, then the GHC statistics options when profiling, then the
// spec's own arguments. nil for a unit the lab did not create, whose
// command line is not the lab's to change.
func (l *Server) wantedArgv(v lab.Variant) ([]string, []lab.Change, error) {
	spec := l.cfg.TargetSpec
	if spec == nil {
		if v.Binary != "" || len(v.Args) > 0 {
			return nil, nil, fmt.Errorf("binary/args: the lab did not create unit %s, so it cannot swap its executable (use a drop-in with ExecStart instead)", l.cfg.TargetUnit)
		}
		return nil, nil, nil
	}
	var changes []lab.Change
	argv := []string{spec.ExecStart[0]}
	// The variant's binary, else the target's own: checked (and, as root,
	// copied) again at every apply, so that a link repointed or a file
	// replaced since the stack was made never runs unchecked.
	if bin := cmp.Or(v.Binary, l.cfg.Binary); bin != "" {
		run, err := l.runBinary(bin)
		if err != nil {
			return nil, nil, err
		}
		argv[0] = run
	}
	if v.Binary != "" {
		from := l.cfg.Binary
		if from == "" {
			from = spec.ExecStart[0]
		}
		changes = append(changes, lab.Change{Where: "binary", Key: "ExecStart", From: from, To: v.Binary})
	}
	argv = append(argv, v.Args...)
	if len(v.Args) > 0 {
		changes = append(changes, lab.Change{Where: "binary", Key: "args", To: strings.Join(v.Args, " ")})
	}
	rtsArgs, rtsChanges, err := l.ghcStatsArgs()
	if err != nil {
		return nil, nil, err
	}
	argv = append(argv, rtsArgs...)
	changes = append(changes, rtsChanges...)
	return append(argv, spec.ExecStart[1:]...), changes, nil
}

// redactErr is err with a secret it may quote replaced.
func redactErr(err error, secret string) error {
	if secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), secret, capability.RedactURI(secret)))
}

// nameBackends sets Config.ApplicationName in the config's db-uri, so that
// the target's backends can be told from the other duet half's. It is the
// lab's bookkeeping, not the variant's: no change is recorded.
func (l *Server) nameBackends(f *configs.File) error {
	if l.cfg.ApplicationName == "" {
		return nil
	}
	old, ok := f.Get("db-uri")
	if !ok {
		return fmt.Errorf("%s: no db-uri to carry application_name %q", l.cfg.Config, l.cfg.ApplicationName)
	}
	uri, err := configs.WithParam(old.String(), "application_name", l.cfg.ApplicationName)
	if err != nil {
		return fmt.Errorf("db-uri: application_name: %w", redactErr(err, old.String()))
	}
	return f.Set("db-uri", configs.String(uri))
}
