package systemd

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// LabDropInPrefix starts the name of every drop-in the lab writes. SetDropIn
// adds it when missing, so RemoveLabDropIns can find and remove every
// drop-in a killed run left behind.
const LabDropInPrefix = "50-lab-"

// DefaultStopTimeout is used when UnitSpec.StopTimeout is 0.
const DefaultStopTimeout = 10 * time.Second

// Validate checks the spec and says which field is wrong and why.
func (s UnitSpec) Validate() error {
	if err := ValidateUnitName(s.Name); err != nil {
		return err
	}
	if len(s.ExecStart) == 0 {
		return fmt.Errorf("unit %s: ExecStart is empty", s.Name)
	}
	if !filepath.IsAbs(s.ExecStart[0]) {
		return fmt.Errorf("unit %s: ExecStart[0] %q is not an absolute path", s.Name, s.ExecStart[0])
	}
	for i, a := range s.ExecStart {
		if strings.ContainsAny(a, "\n\r\x00") {
			return fmt.Errorf("unit %s: ExecStart[%d] contains a newline or NUL", s.Name, i)
		}
	}
	if s.WorkingDir != "" && !filepath.IsAbs(s.WorkingDir) {
		return fmt.Errorf("unit %s: WorkingDir %q is not an absolute path", s.Name, s.WorkingDir)
	}
	if s.LogFile != "" && !filepath.IsAbs(s.LogFile) {
		return fmt.Errorf("unit %s: LogFile %q is not an absolute path", s.Name, s.LogFile)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Environment)) {
		if err := CheckEnv(s.Name, k+"="+s.Environment[k]); err != nil {
			return err
		}
	}
	switch s.Restart {
	case "", "no", "always", "on-success", "on-failure", "on-abnormal", "on-abort", "on-watchdog":
	default:
		return fmt.Errorf("unit %s: Restart=%q: allowed: no, always, on-success, on-failure, on-abnormal, on-abort, on-watchdog", s.Name, s.Restart)
	}
	if s.KillSignal != "" {
		if _, err := ParseSignal(s.KillSignal); err != nil {
			return fmt.Errorf("unit %s: KillSignal: %w", s.Name, err)
		}
	}
	if s.ReloadSignal != "" {
		if _, err := ParseSignal(s.ReloadSignal); err != nil {
			return fmt.Errorf("unit %s: ReloadSignal: %w", s.Name, err)
		}
	}
	if s.Sandbox != nil {
		for _, p := range append(slices.Clone(s.Sandbox.Writable), s.Sandbox.ReadOnly...) {
			if !filepath.IsAbs(p) || strings.ContainsAny(p, "\n\r\x00") {
				return fmt.Errorf("unit %s: Sandbox path %q is not an absolute path on one line", s.Name, p)
			}
		}
	}
	if s.StopTimeout < 0 {
		return fmt.Errorf("unit %s: StopTimeout %v is negative", s.Name, s.StopTimeout)
	}
	return ValidateSettings(s.Name, "Extra", s.Extra)
}

// ValidateUnitName accepts a name ending in .service made of letters,
// digits and ":-_.\@", so it is safe as a file name in a unit or state dir.
func ValidateUnitName(name string) error {
	if !strings.HasSuffix(name, ".service") || len(name) <= len(".service") {
		return fmt.Errorf("unit name %q: must end in .service", name)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(":-_.\\@", r)
		if !ok {
			return fmt.Errorf("unit name %q: character %q not allowed (letters, digits, \":-_.\\@\")", name, r)
		}
	}
	return nil
}

// ValidateSettings checks [Service] settings (UnitSpec.Extra or a drop-in,
// named by what): plain keys, single-line values, no Environment=.
func ValidateSettings(unit, what string, settings map[string]string) error {
	for k, v := range settings {
		if k == "Environment" || k == "EnvironmentFile" {
			return fmt.Errorf("unit %s: %s %s= is refused: set variables with UnitSpec.Environment or SetEnvironment (a list, never a line parsed again)", unit, what, k)
		}
		if k == "" || strings.ContainsAny(k, "= \t\n[]") {
			return fmt.Errorf("unit %s: %s key %q is not a valid setting name", unit, what, k)
		}
		if strings.ContainsAny(v, "\n\r\x00") {
			return fmt.Errorf("unit %s: %s %s= contains a newline or NUL", unit, what, k)
		}
	}
	return nil
}

// DropInFileName returns "50-lab-<dropin>.conf", adding the prefix and
// suffix when missing, or an error when dropin is not a plain name.
func DropInFileName(dropin string) (string, error) {
	d := strings.TrimSuffix(dropin, ".conf")
	if d == "" || strings.ContainsAny(d, "/\\\n\x00") || d == "." || d == ".." {
		return "", fmt.Errorf("drop-in name %q: must be a plain file name", dropin)
	}
	if !strings.HasPrefix(d, LabDropInPrefix) {
		d = LabDropInPrefix + d
	}
	return d + ".conf", nil
}

// RenderUnit renders spec as a systemd unit file. Type=exec makes the start
// job fail when the binary cannot be executed; StartLimitIntervalSec=0 lets
// the lab restart the unit as often as it wants.
func RenderUnit(spec UnitSpec) (string, error) {
	if err := spec.Validate(); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Written by pgrst-lab; changes are overwritten.\n[Unit]\n")
	desc := spec.Description
	if desc == "" {
		desc = "pgrst-lab " + spec.Name
	}
	fmt.Fprintf(&b, "Description=%s\n", escapeSpecifiers(desc))
	b.WriteString("StartLimitIntervalSec=0\n\n[Service]\nType=exec\n")
	fmt.Fprintf(&b, "ExecStart=%s\n", QuoteCommand(spec.ExecStart))
	if spec.ReloadSignal != "" {
		sig, _ := ParseSignal(spec.ReloadSignal)
		fmt.Fprintf(&b, "ExecReload=/bin/kill -s %s $MAINPID\n", SignalName(sig))
	}
	if spec.User != "" {
		fmt.Fprintf(&b, "User=%s\n", escapeSpecifiers(spec.User))
	}
	if spec.WorkingDir != "" {
		fmt.Fprintf(&b, "WorkingDirectory=%s\n", escapeSpecifiers(spec.WorkingDir))
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Environment)) {
		fmt.Fprintf(&b, "Environment=%s\n", quoteEnv(k+"="+spec.Environment[k]))
	}
	if spec.LogFile != "" {
		fmt.Fprintf(&b, "StandardOutput=append:%s\nStandardError=append:%s\n",
			escapeSpecifiers(spec.LogFile), escapeSpecifiers(spec.LogFile))
	}
	restart := spec.Restart
	if restart == "" {
		restart = "no"
	}
	fmt.Fprintf(&b, "Restart=%s\n", restart)
	if restart != "no" {
		b.WriteString("RestartSec=100ms\n")
	}
	if spec.KillSignal != "" {
		sig, _ := ParseSignal(spec.KillSignal)
		fmt.Fprintf(&b, "KillSignal=%s\n", SignalName(sig))
	}
	fmt.Fprintf(&b, "TimeoutStopSec=%dms\n", spec.EffectiveStopTimeout().Milliseconds())
	for _, k := range slices.Sorted(maps.Keys(spec.Extra)) {
		fmt.Fprintf(&b, "%s=%s\n", k, spec.Extra[k])
	}
	renderSandbox(&b, spec.Sandbox)
	return b.String(), nil
}

// renderSandbox writes a Sandbox's settings (systemd.exec(5)).
func renderSandbox(b *strings.Builder, s *Sandbox) {
	if s == nil {
		return
	}
	b.WriteString("NoNewPrivileges=yes\n")
	if !s.Namespaces {
		return
	}
	b.WriteString("CapabilityBoundingSet=\nProtectSystem=strict\nProtectHome=tmpfs\nPrivateTmp=yes\n")
	for _, p := range s.Writable {
		fmt.Fprintf(b, "BindPaths=%s\n", quotePath("-"+p))
	}
	for _, p := range s.ReadOnly {
		fmt.Fprintf(b, "BindReadOnlyPaths=%s\n", quotePath("-"+p))
	}
}

// RenderDropIn renders a [Service] drop-in with the given settings.
func RenderDropIn(unit string, settings map[string]string) (string, error) {
	if err := ValidateSettings(unit, "drop-in", settings); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Written by pgrst-lab; removed when the experiment ends.\n[Service]\n")
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		fmt.Fprintf(&b, "%s=%s\n", k, settings[k])
	}
	return b.String(), nil
}

// EnvFileName is the drop-in file that holds SetEnvironment's list for a
// drop-in file name.
func EnvFileName(file string) string { return strings.TrimSuffix(file, ".conf") + "-env.conf" }

// RenderEnvDropIn renders an environment list as a drop-in: one
// Environment= line per checked assignment, quoted whole.
func RenderEnvDropIn(unit string, env []string) (string, error) {
	var b strings.Builder
	b.WriteString("# Written by pgrst-lab; removed when the experiment ends.\n[Service]\n")
	for _, a := range env {
		if err := CheckEnv(unit, a); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "Environment=%s\n", quoteEnv(a))
	}
	return b.String(), nil
}

// EffectiveStopTimeout is how long a stop waits before SIGKILL: StopTimeout,
// or DefaultStopTimeout when it is 0.
func (s UnitSpec) EffectiveStopTimeout() time.Duration {
	if s.StopTimeout == 0 {
		return DefaultStopTimeout
	}
	return s.StopTimeout
}

// QuoteCommand quotes argv for ExecStart=: every word survives systemd's
// splitting, specifier (%) and variable ($) expansion unchanged.
func QuoteCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = quoteWord(a)
	}
	return strings.Join(words, " ")
}

func quoteWord(s string) string {
	s = escapeSpecifiers(strings.ReplaceAll(s, "$", "$$"))
	if s != "" && s != ";" && !strings.ContainsAny(s, " \t\"'\\") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// quotePath quotes a path for a list setting such as BindPaths=, which
// expands specifiers (%) but not variables ($).
func quotePath(s string) string {
	s = escapeSpecifiers(s)
	if !strings.ContainsAny(s, " \t\"'\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// quoteEnv quotes one KEY=VALUE assignment for Environment=, which
// expands specifiers (%) but not variables ($): always in double quotes,
// with \ and " escaped and % doubled. CheckEnv has refused what cannot
// be quoted (control and other non-printing characters).
func quoteEnv(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%").Replace(s) + `"`
}

// CheckEnv checks one assignment of an environment list: a variable name,
// "=", and printable single-line text.
func CheckEnv(unit string, a string) error {
	k, v, ok := strings.Cut(a, "=")
	if !ok || !envNameRe.MatchString(k) {
		return fmt.Errorf("unit %s: environment %q is not a NAME=VALUE assignment", unit, a)
	}
	for i, r := range v {
		if r != ' ' && (!unicode.IsPrint(r) || r == unicode.ReplacementChar) {
			return fmt.Errorf("unit %s: environment %s: non-printing character %U at byte %d", unit, k, r, i)
		}
	}
	return nil
}

var envNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func escapeSpecifiers(s string) string { return strings.ReplaceAll(s, "%", "%%") }
