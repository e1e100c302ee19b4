package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TargetLine is one request of a targets file, as far as naming its
// scenario needs (per_line).
type TargetLine struct {
	Method string
	Path   string
}

// SplitTargets makes each request of the targets file its own scenario
// (per_line, --per-line), in place of the one scenario "targets" that
// sends them round-robin. Each line then gets its own capacity search,
// its own trials and its own headline (CPU per request of that line
// alone), so that a change to one endpoint is not diluted by the
// others; trials.alpha is divided among the lines. lines are the file's
// requests in order (loadgen reads them); the scenarios are named after
// them (LineScenarioNames).
func (e *Experiment) SplitTargets(lines []TargetLine) error {
	if e.Targets == "" {
		return fmt.Errorf("per_line: the experiment replays no targets file (set targets, or give --targets FILE)")
	}
	if len(lines) == 0 {
		return fmt.Errorf("per_line: %s holds no request", e.Targets)
	}
	at := slices.Index(e.Scenarios, TargetsScenario)
	if at < 0 {
		return fmt.Errorf("per_line: the scenario %q is not among the ones to run (%v)", TargetsScenario, e.Scenarios)
	}
	taken := map[string]bool{}
	for _, s := range e.Scenarios {
		taken[s] = true
	}
	names := LineScenarioNames(lines, taken)
	e.Custom = slices.DeleteFunc(e.Custom, func(s Scenario) bool { return s.Name == TargetsScenario && s.Targets != "" })
	for i, n := range names {
		e.Custom = append(e.Custom, Scenario{Name: n, Targets: e.Targets, Line: i + 1, Weight: DefaultWeight})
	}
	e.Scenarios = slices.Concat(e.Scenarios[:at], names, e.Scenarios[at+1:])
	e.PerLine = true
	// Each line is a comparison of its own: at alpha / lines each
	// (Bonferroni), the chance that any unchanged line is flagged stays
	// at alpha, as Holm keeps it across the lines of one mixed trial.
	if len(lines) > 1 {
		a := e.Trials.Alpha
		if a <= 0 {
			a = DefaultAlpha
		}
		e.Trials.Alpha = a / float64(len(lines))
	}
	return nil
}

// LineScenarioNames names the scenarios of a targets file's lines after
// their method and path, without the query (GET-artist, POST-employee,
// GET-rpc-ret_artists), in the characters a scenario's name allows; a
// name already taken, or given to an earlier line, gets -2, -3, ...
func LineScenarioNames(lines []TargetLine, taken map[string]bool) []string {
	out := make([]string, len(lines))
	used := map[string]bool{}
	for k := range taken {
		used[k] = true
	}
	for i, l := range lines {
		path, _, _ := strings.Cut(l.Path, "?")
		base := lineSlug(l.Method + "-" + strings.Trim(path, "/"))
		if base == "" || slices.Contains(BuiltinScenarios, base) {
			base = "line" + strconv.Itoa(i+1)
		}
		out[i] = UniqueName(base, used)
	}
	return out
}

// UniqueName is base, or base-2, base-3, ... the first that used does not
// hold, which it then holds: how the lab names lines' scenarios and lab
// ab's refs' variants.
func UniqueName(base string, used map[string]bool) string {
	name := base
	for n := 2; used[name]; n++ {
		name = base + "-" + strconv.Itoa(n)
	}
	used[name] = true
	return name
}

// RefName makes a variant name of a git ref, unique among used: HEAD,
// main, v13.0.8, origin-main (for origin/main), "ref" when nothing of it
// can name one.
func RefName(ref string, used map[string]bool) string {
	name := strings.Trim(lineSlug(ref), "-._")
	if !ValidName(name) {
		name = "ref"
	}
	return UniqueName(name, used)
}

// lineSlug keeps letters, digits, '.', '_' and '-', turning anything else
// (a '/', a '*') into one '-'.
func lineSlug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_')
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}
