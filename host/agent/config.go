package agent

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Config is the agent's own config (AGENT.toml): where it listens and,
// fixed here and never taken from a request, what it may touch.
//
//	listen = "127.0.0.1:7171"
//	advertise_host = "10.0.0.5"    # the target's URL as drivers reach it (or advertise_url)
//	lease = "10s"                  # dead-man switch
//	host_id = "rack1-node7"        # the machine's identity, when machine-ids are cloned
//	[stack]
//	dir = "/var/lib/pgrst-lab"     # a local stack (lab stack up) ...
//	[target]                       # ... or an existing server
//	unit = "postgrest.service"
//	config = "/etc/postgrest.conf"
//	url = "http://127.0.0.1:3000"
//	pg_uri = "postgres://postgres@/postgres?host=/run/postgresql"
//	[tls]
//	cert = "/etc/lab/agent.pem"
//	key = "/etc/lab/agent-key.pem"
//	[allow]
//	postgresql_settings = ["synchronous_commit"]
type Config struct {
	Listen         string `toml:"listen"`
	AllowPlaintext bool   `toml:"allow_plaintext"`
	AdvertiseURL   string `toml:"advertise_url"`
	AdvertiseHost  string `toml:"advertise_host"`
	// HostID replaces the machine identity the agent reports (its DMI
	// product UUID or machine-id), e.g. on VMs cloned with one machine-id:
	// drivers run hosts with distinct identities at the same time.
	HostID           string        `toml:"host_id"`
	Lease            time.Duration `toml:"lease"`
	StateDir         string        `toml:"state_dir"`
	AllowUnknownKeys bool          `toml:"allow_unknown_keys"`
	TokenFile        string        `toml:"token_file"`
	Stack            struct {
		Dir string `toml:"dir"`
	} `toml:"stack"`
	Target TargetConfig `toml:"target"`
	TLS    TLSFiles     `toml:"tls"`
	Allow  Policy       `toml:"allow"`

	// File is where the config was read from.
	File string `toml:"-"`
}

// TargetConfig names an existing server the agent may touch: AGENT.toml's
// [target] table, with the keys of an experiment file's [target] that
// name an existing server (cmd/lab's tests hold the two to the same keys).
type TargetConfig struct {
	Unit     string `toml:"unit"`      // PostgREST unit
	Config   string `toml:"config"`    // its config file
	URL      string `toml:"url"`       // its API URL
	AdminURL string `toml:"admin_url"` // its admin server (/ready, /metrics)
	PGUnit   string `toml:"pg_unit"`   // PostgreSQL unit, for restarts and telemetry
	PGURI    string `toml:"pg_uri"`    // superuser URI, for settings and counters
}

// Target is the table as the lab's model has it (an existing server: no
// stack directory).
func (t TargetConfig) Target() lab.Target {
	return lab.Target{Unit: t.Unit, Config: t.Config, URL: t.URL, AdminURL: t.AdminURL, PGUnit: t.PGUnit, PGURI: t.PGURI}
}

// LoadConfig reads AGENT.toml strictly: unknown keys and missing or
// conflicting settings are errors naming file:line. Lists in [allow]
// replace the DefaultPolicy's; relative paths are relative to the file.
func LoadConfig(path string) (*Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("agent config: %w", err)
	}
	c := &Config{Allow: DefaultPolicy(), File: path}
	md, err := toml.Decode(string(src), c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var errs []error
	for _, k := range md.Undecoded() {
		errs = append(errs, fmt.Errorf("%s:%d: unknown key %q (allowed: %s)", path, keyLine(src, k), k.String(), allowedKeys(k)))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c.resolve(filepath.Dir(path))
	if err := c.validate(src); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) resolve(dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	for _, p := range []*string{&c.StateDir, &c.TokenFile, &c.Stack.Dir, &c.Target.Config, &c.TLS.Cert, &c.TLS.Key, &c.TLS.ClientCA} {
		abs(p)
	}
}

func (c *Config) validate(src []byte) error {
	at := func(key ...string) string { return fmt.Sprintf("%s:%d", c.File, keyLine(src, toml.Key(key))) }
	t := c.Target
	hasTarget := t.Unit != "" || t.Config != "" || t.URL != ""
	var errs []error
	switch {
	case c.Stack.Dir != "" && hasTarget:
		errs = append(errs, fmt.Errorf("%s: give either [stack] dir or [target], not both", at("target")))
	case c.Stack.Dir == "" && !hasTarget:
		errs = append(errs, fmt.Errorf("%s: say what the agent may touch: [stack] dir = \"...\" or [target] unit, config, url", c.File))
	case hasTarget && (t.Unit == "" || t.Config == "" || t.URL == ""):
		errs = append(errs, fmt.Errorf("%s: [target] needs unit, config and url", at("target")))
	}
	if c.AdvertiseURL != "" && c.AdvertiseHost != "" {
		errs = append(errs, fmt.Errorf("%s: give advertise_url or advertise_host, not both", at("advertise_host")))
	}
	if c.HostID != "" {
		if err := cleanText("host_id", c.HostID); err != nil || len(c.HostID) > 128 {
			errs = append(errs, fmt.Errorf("%s: host_id %q: want at most 128 printable characters", at("host_id"), c.HostID))
		}
	}
	if c.Lease < 0 || (c.Lease > 0 && c.Lease < time.Second) {
		errs = append(errs, fmt.Errorf("%s: lease %v: want at least 1s", at("lease"), c.Lease))
	}
	if c.TLS.Enabled() && (c.TLS.Cert == "" || c.TLS.Key == "") {
		errs = append(errs, fmt.Errorf("%s: [tls] needs both cert and key", at("tls")))
	}
	if c.TLS.ClientCA != "" && !c.TLS.Enabled() {
		errs = append(errs, fmt.Errorf("%s: client_ca needs cert and key", at("tls", "client_ca")))
	}
	errs = append(errs, c.Allow.validate(func(k string) string { return at("allow", k) })...)
	if hasTarget {
		for _, k := range c.Allow.PostgreSQL {
			if why := capability.Throwaway(k); why != "" {
				errs = append(errs, fmt.Errorf("%s: postgresql setting %s: %s; an agent allows it only for the lab's own stack ([stack] dir), never for a [target] database", at("allow", "postgresql_settings"), k, why))
			}
		}
	}
	for _, b := range c.Allow.Binaries {
		if !filepath.IsAbs(b) {
			errs = append(errs, fmt.Errorf("%s: binary %q: give an absolute path", at("allow", "binaries"), b))
		}
	}
	return errors.Join(errs...)
}

// validate refuses allow-list entries no variant could ever use, so a
// config that means more than it gets says so: wildcards ("PGRST_*": names
// are exact), variables and keys the capability table never allows
// (LD_PRELOAD, PGRST_SERVER_HOST, server-unix-socket), unknown drop-in keys.
func (p Policy) validate(at func(key string) string) []error {
	var errs []error
	for _, n := range p.Env {
		if strings.Contains(n, "*") {
			errs = append(errs, fmt.Errorf("%s: env %q: variables are allowed by exact name; list each one (e.g. PGRST_DB_POOL)", at("env"), n))
			continue
		}
		if err := capability.EnvName(n); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", at("env"), err))
		} else if _, _, err := capability.Env(n, ""); err != nil && !isValueError(err) {
			errs = append(errs, fmt.Errorf("%s: %v", at("env"), err))
		}
	}
	for _, k := range p.PostgRESTKeys {
		if strings.Contains(k, "*") && k != postgrest.AppSettingsRow {
			errs = append(errs, fmt.Errorf("%s: postgrest key %q: keys are listed by name; the one pattern is %q (every app.settings.x)", at("postgrest_keys"), k, postgrest.AppSettingsRow))
			continue
		}
		if class, err := capability.PostgRESTKey(k, ""); err != nil || class == capability.Fixed {
			errs = append(errs, fmt.Errorf("%s: %v", at("postgrest_keys"), err))
		}
	}
	for _, k := range p.DropIn {
		if !slices.Contains(capability.DropInKeys(), k) {
			errs = append(errs, fmt.Errorf("%s: dropin %q: not a drop-in setting the lab can set (known: %s)", at("dropin"), k, strings.Join(capability.DropInKeys(), ", ")))
		}
	}
	for _, k := range p.PostgreSQL {
		if err := capability.PostgreSQL(k, ""); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", at("postgresql_settings"), err))
		}
	}
	return errs
}

// isValueError reports a refusal about the (empty) value, not the name.
func isValueError(err error) bool {
	var ce *capability.Error
	return errors.As(err, &ce) && ce.Code == capability.Invalid
}

// keyLine finds the line a key is written on: a table header or
// "name =" inside the key's table; 0 when not found.
func keyLine(src []byte, k toml.Key) int {
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[] \t")
			if i := strings.IndexByte(table, '#'); i >= 0 {
				table = strings.TrimSpace(table[:i])
			}
			if table == strings.Join(k, ".") {
				return n
			}
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		full := strings.Trim(strings.TrimSpace(name), `"`)
		if table != "" {
			full = table + "." + full
		}
		if full == strings.Join(k, ".") {
			return n
		}
	}
	return 0
}

func allowedKeys(k toml.Key) string {
	switch {
	case len(k) > 1 && k[0] == "stack":
		return "dir"
	case len(k) > 1 && k[0] == "target":
		return "unit, config, url, admin_url, pg_unit, pg_uri"
	case len(k) > 1 && k[0] == "tls":
		return "cert, key, client_ca"
	case len(k) > 1 && k[0] == "allow":
		return "postgrest_keys, postgresql_settings, env, dropin, binaries, args"
	}
	return "listen, allow_plaintext, advertise_url, advertise_host, lease, state_dir, allow_unknown_keys, token_file, [stack], [target], [tls], [allow]"
}
