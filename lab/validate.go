package lab

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/didyoumean"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// BuiltinScenarios are the scenarios of the 2020 Supabase/PostgREST
// benchmark, which an experiment may name without defining them: its
// eight as its November 2020 scripts sent them (random ids), then, named
// …2020, the requests the 2020 thread's tables measured where those differ
// (fixed ids, POSTBulk's 20 identical objects; docs/scenarios.md).
var BuiltinScenarios = []string{
	"GETSingle", "GETSingleEmbed", "GETAllEmbed", "POSTSingle", "POSTBulk",
	"RPCSimple", "RPCGETSingle", "RPCGETSingleEmbed",
	"GETSingle2020", "GETSingleEmbed2020", "POSTBulk2020", "RPCGETSingle2020", "RPCGETSingleEmbed2020",
}

// Documented defaults, filled by Defaults.
const (
	DefaultModel       = ModelClosed
	DefaultConnections = 10
	DefaultDuration    = 10 * time.Second
	DefaultWarmup      = 2 * time.Second
	DefaultTimeout     = 10 * time.Second
	DefaultTrialsMin   = 5
	DefaultTrialsMax   = 10
	DefaultOrder       = OrderInterleaved
	DefaultAlpha       = 0.05
	DefaultSeed        = 1
	// DefaultInterference is the share of the machine's CPUs other work
	// may use during a trial before the trial's round is measured again.
	DefaultInterference = 0.2
	DefaultMethod       = "GET"
	DefaultWeight       = 1.0
)

// Bounds on what an experiment may ask for, so that a hostile or mistyped
// file is refused at validation instead of panicking or allocating without
// bound when it runs (the load generator's own limits).
const (
	MaxRate        = 1e7            // requests/s (load.rate, limit.min_rate, limit.max_rate)
	MaxConnections = 100_000        // load.connections, load.max_in_flight
	MaxThreads     = 1024           // load.threads
	MaxLoadTime    = 24 * time.Hour // load.duration + load.warmup (one trial's load)
	MaxWait        = time.Hour      // load.timeout, load.think, limit.p99
	MaxTrials      = 10_000         // trials.min, trials.max (rounds)
	MaxWeight      = 1e6            // a scenario's weight
	MaxSeqStart    = int64(1) << 62 // |START| of {seq START}
)

// FieldError is one problem of an experiment, naming the field it is about.
type FieldError struct {
	// Field is the path of the field, by its TOML names; an element of an
	// array of tables is written with its index: {"variant[1]", "postgrest", "db-uri"}.
	Field []string
	Msg   string
}

// Path renders Field as a dotted path; a name that is not a bare TOML key
// is quoted: variant[1].postgresql."auto_explain.log_min_duration".
func (e *FieldError) Path() string { return FormatPath(e.Field) }

func (e *FieldError) Error() string {
	if len(e.Field) == 0 {
		return e.Msg
	}
	return e.Path() + ": " + e.Msg
}

var (
	bareKey    = regexp.MustCompile(`^[A-Za-z0-9_-]+(\[[0-9]+\])?$`)
	nameRe     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	pgrstKeyRe = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// ValidName reports whether s may name an experiment, a variant or a
// scenario: letters, digits, '.', '_' and '-', not starting with a symbol.
func ValidName(s string) bool { return nameRe.MatchString(s) }

// FormatPath renders a field path as FieldError.Path does.
func FormatPath(field []string) string {
	parts := make([]string, len(field))
	for i, f := range field {
		if bareKey.MatchString(f) {
			parts[i] = f
		} else {
			parts[i] = fmt.Sprintf("%q", f)
		}
	}
	return strings.Join(parts, ".")
}

// Defaults fills the fields left at their zero value with the documented
// defaults: model closed with 10 connections, duration 10s, warm-up 2s,
// timeout 10s, trials min 5 and max 10, order interleaved, alpha 0.05,
// seed 1; custom scenarios get method GET and weight 1.
//
// A zero warm-up is also filled (with 2s): package experiments applies
// Defaults before decoding a file, so a value the file writes, even 0, is kept.
func (e *Experiment) Defaults() {
	l := &e.Load
	if l.Model == "" {
		l.Model = DefaultModel
	}
	if l.Model.Closed() && l.Connections == 0 {
		l.Connections = DefaultConnections
	}

	if l.Duration == 0 {
		l.Duration = DefaultDuration
	}
	if l.Warmup == 0 {
		l.Warmup = DefaultWarmup
	}
	if l.Timeout == 0 {
		l.Timeout = DefaultTimeout
	}
	t := &e.Trials
	if t.Min == 0 {
		t.Min = DefaultTrialsMin
	}
	if t.Max == 0 {
		t.Max = max(DefaultTrialsMax, t.Min)
	}
	if t.Order == "" {
		t.Order = DefaultOrder
	}
	if t.Alpha == 0 {
		t.Alpha = DefaultAlpha
	}
	if t.Seed == 0 {
		t.Seed = DefaultSeed
	}
	for i := range e.Custom {
		e.Custom[i].Defaults()
	}
}

// Defaults fills a custom scenario's method (GET) and weight (1).
func (s *Scenario) Defaults() {
	if s.Method == "" {
		s.Method = DefaultMethod
	}
	if s.Weight == 0 {
		s.Weight = DefaultWeight
	}
}

// Validate returns every problem of the experiment (nil if none), each a
// *FieldError naming the field. It checks values, not PostgREST's key
// catalogue: package experiments does that with a validator from the caller.
func (e *Experiment) Validate() []error {
	var v validator
	if e.Name == "" {
		v.add("is required", "name")
	} else if !nameRe.MatchString(e.Name) {
		v.add(fmt.Sprintf("%q: use letters, digits, '.', '_' and '-' (it names files and reports)", e.Name), "name")
	}
	v.target(&e.Target)
	v.scenarios(e)
	if e.JWTSecret != "" && len(e.JWTSecret) < 32 {
		v.add("must be at least 32 characters (PostgREST refuses shorter HS256 secrets)", "jwt_secret")
	}
	v.load(&e.Load)
	v.trials(&e.Trials)
	v.partition(e)
	v.actions(e)
	if msg := e.Cost.Check(); msg != "" {
		v.add(msg, "cost")
	}
	v.sweep(e)
	if e.Sweep == nil || len(e.Variants) > 0 { // an invalid sweep generates none
		v.variants(e.Variants)
		v.duet(e)
	}
	return v.errs
}

type validator struct{ errs []error }

func (v *validator) add(msg string, field ...string) {
	v.errs = append(v.errs, &FieldError{Field: field, Msg: msg})
}

func (v *validator) target(t *Target) {
	external := t.Unit != "" || t.Config != "" || t.URL != ""
	if t.Stack != "" && external {
		v.add("set either stack (a local stack) or unit/config/url (an existing server), not both", "target", "stack")
	}
	if t.Unit != "" && t.Config == "" {
		v.add("is required with target.unit: the lab rewrites this PostgREST config file", "target", "config")
	}
	for _, u := range []struct{ name, val string }{{"url", t.URL}, {"admin_url", t.AdminURL}} {
		if u.val == "" {
			continue
		}
		p, err := url.Parse(u.val)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			v.add(fmt.Sprintf("%q is not an http:// or https:// URL", u.val), "target", u.name)
		}
	}
	if t.PGURI != "" && !isDBURI(t.PGURI) {
		v.add(fmt.Sprintf("%q is not a PostgreSQL URI (postgres://...) or key=value connection string", capability.RedactURI(t.PGURI)), "target", "pg_uri")
	}
}

func (v *validator) scenarios(e *Experiment) {
	custom := map[string]int{}
	for i, s := range e.Custom {
		el := fmt.Sprintf("scenario[%d]", i)
		switch {
		case s.Name == "":
			v.add("is required", el, "name")
		case slices.Contains(BuiltinScenarios, s.Name):
			v.add(fmt.Sprintf("%q is a built-in scenario; give the custom one another name", s.Name), el, "name")
		case !nameRe.MatchString(s.Name):
			v.add(fmt.Sprintf("%q: use letters, digits, '.', '_' and '-'", s.Name), el, "name")
		default:
			if j, dup := custom[s.Name]; dup {
				v.add(fmt.Sprintf("%q is already the name of scenario[%d]", s.Name, j), el, "name")
			} else {
				custom[s.Name] = i
			}
		}
		switch s.Method {
		case "", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
		default:
			v.add(fmt.Sprintf("%q is not an HTTP method (allowed: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)", s.Method), el, "method")
		}
		if s.Targets == "" && !strings.HasPrefix(s.Path, "/") {
			v.add(fmt.Sprintf("%q must start with / (it is appended to the target's URL)", s.Path), el, "path")
		}
		if s.Body != "" && s.BodyFile != "" {
			v.add("set body or body_file, not both", el, "body_file")
		}
		if s.Expect != 0 && (s.Expect < 100 || s.Expect > 599) {
			v.add(fmt.Sprintf("%d is not an HTTP status (100..599; 0 = any 2xx)", s.Expect), el, "expect")
		}
		if !(s.Weight >= 0 && s.Weight <= MaxWeight) {
			v.add(fmt.Sprintf("%v must be a number in [0, %g]", s.Weight, MaxWeight), el, "weight")
		}
		v.templates(s, el)
		for h := range s.Header {
			if h == "" || strings.ContainsAny(h, " :\t\r\n") {
				v.add(fmt.Sprintf("%q is not an HTTP header name", h), el, "header", h)
			}
		}
	}
	if len(e.Scenarios) == 0 {
		v.add("list at least one scenario (built-in: "+strings.Join(BuiltinScenarios, ", ")+"; or a [[scenario]] name)", "scenarios")
	}
	seen := map[string]bool{}
	for i, name := range e.Scenarios {
		el := fmt.Sprintf("scenarios[%d]", i)
		_, isCustom := custom[name]
		switch {
		case seen[name]:
			v.add(fmt.Sprintf("%q is listed twice", name), el)
		case !isCustom && !slices.Contains(BuiltinScenarios, name):
			msg := fmt.Sprintf("unknown scenario %q", name)
			known := append(slices.Clone(BuiltinScenarios), slices.Sorted(maps.Keys(custom))...)
			if s := Suggest(name, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else {
				msg += " (built-in: " + strings.Join(BuiltinScenarios, ", ") + "; or define a [[scenario]])"
			}
			v.add(msg, el)
		}
		seen[name] = true
	}
	for i, s := range e.Custom {
		if s.Name != "" && !seen[s.Name] && custom[s.Name] == i {
			v.add(fmt.Sprintf("scenario %q is defined but not listed in scenarios", s.Name), fmt.Sprintf("scenario[%d]", i), "name")
		}
	}
}

func (v *validator) load(l *Load) {
	switch l.Model {
	case ModelOpen:
		if l.Rate == 0 { // negative, NaN and Inf: below
			v.add(fmt.Sprintf("must be > 0 requests/s for model %q", ModelOpen), "load", "rate")
		}
	case ModelClosed:
		if l.Connections <= 0 {
			v.add(fmt.Sprintf("must be > 0 for model %q", ModelClosed), "load", "connections")
		}
	case ModelEfficiency:
		if !(l.Utilisation >= 0 && l.Utilisation < 1) { // 0: DefaultUtilisation
			v.add(fmt.Sprintf("%v must be in (0, 1), the share of the baseline's capacity to offer (e.g. 0.65)", l.Utilisation), "load", "utilisation")
		}
		v.searchLimit(l.Model, l.Limit, false)
	case ModelSearch:
		v.searchLimit(l.Model, l.Limit, true)
	default:
		v.add(l.Model.Valid().Error(), "load", "model")
	}
	for _, f := range []struct {
		name string
		val  float64
	}{{"max_errors", l.Limit.ErrorRate()}, {"max_dropped", l.Limit.DroppedRate()}} {
		if f.val < 0 || f.val > 1 || math.IsNaN(f.val) {
			v.add(fmt.Sprintf("%v must be a fraction between 0 and 1 (e.g. 0.001)", f.val), "load", "limit", f.name)
		}
	}
	if !(l.Rate >= 0 && l.Rate <= MaxRate) {
		v.add(fmt.Sprintf("%v must be in [0, %g] requests/s", l.Rate, MaxRate), "load", "rate")
	}
	if l.MaxInFlight < 0 || l.MaxInFlight > MaxConnections {
		v.add(fmt.Sprintf("%d must be in [0, %d] (0 = the default bound)", l.MaxInFlight, MaxConnections), "load", "max_in_flight")
	}
	if l.Connections < 0 || l.Connections > MaxConnections {
		v.add(fmt.Sprintf("%d must be in [0, %d]", l.Connections, MaxConnections), "load", "connections")
	}
	if l.Threads < 0 || l.Threads > MaxThreads {
		v.add(fmt.Sprintf("%d must be in [0, %d] (0 = automatic)", l.Threads, MaxThreads), "load", "threads")
	}
	if l.Duration <= 0 {
		v.add(fmt.Sprintf("%v must be > 0 (e.g. \"10s\")", l.Duration), "load", "duration")
	} else if l.Duration > MaxLoadTime {
		v.add(fmt.Sprintf("%v must be at most %v", l.Duration, MaxLoadTime), "load", "duration")
	}
	for _, d := range []struct {
		name     string
		val, max time.Duration
	}{{"warmup", l.Warmup, MaxLoadTime}, {"timeout", l.Timeout, MaxWait}, {"think", l.Think, MaxWait}} {
		if d.val < 0 {
			v.add(fmt.Sprintf("%v must be >= 0", d.val), "load", d.name)
		} else if d.val > d.max {
			v.add(fmt.Sprintf("%v must be at most %v", d.val, d.max), "load", d.name)
		}
	}
	if l.Duration > 0 && l.Duration <= MaxLoadTime && l.Warmup >= 0 && l.Warmup <= MaxLoadTime && l.Duration+l.Warmup > MaxLoadTime {
		v.add(fmt.Sprintf("%v: duration + warmup must be at most %v", l.Warmup, MaxLoadTime), "load", "warmup")
	}
}

// searchLimit checks the limit a capacity search must meet (models search
// and efficiency).
func (v *validator) searchLimit(model Model, lim Limit, required bool) {
	if required && lim.P99 <= 0 && lim.MaxErrors == nil {
		v.add(fmt.Sprintf("model %q needs limit.p99 (e.g. \"50ms\") or limit.max_errors (e.g. 0.001, or 0 for no failures)", model), "load", "limit")
	}
	if lim.P99 < 0 || lim.P99 > MaxWait {
		v.add(fmt.Sprintf("%v must be in [0, %v]", lim.P99, MaxWait), "load", "limit", "p99")
	}
	if lim.P95 < 0 || lim.P95 > MaxWait {
		v.add(fmt.Sprintf("%v must be in [0, %v]", lim.P95, MaxWait), "load", "limit", "p95")
	}
	if lim.Hold != 0 && (lim.Hold < time.Second || lim.Hold > MaxLoadTime) {
		v.add(fmt.Sprintf("%v must be 0 (no hold: a plain search) or in [1s, %v]", lim.Hold, MaxLoadTime), "load", "limit", "hold")
	}
	if lim.Hold != 0 && model != ModelSearch {
		v.add(fmt.Sprintf("%v: a hold is the search model's (each trial finds a sustained limit), not %q's", lim.Hold, model), "load", "limit", "hold")
	}
	if lim.MinAchieved != 0 && !(lim.MinAchieved >= 0.5 && lim.MinAchieved <= 1) {
		v.add(fmt.Sprintf("%v must be in [0.5, 1] (a share of the offered rate; 0 = 0.99)", lim.MinAchieved), "load", "limit", "min_achieved")
	}
	if !(lim.MinRate >= 0 && lim.MinRate <= MaxRate) {
		v.add(fmt.Sprintf("%v must be in [0, %g] requests/s", lim.MinRate, MaxRate), "load", "limit", "min_rate")
	}
	if !(lim.MaxRate >= 0 && lim.MaxRate <= MaxRate) {
		v.add(fmt.Sprintf("%v must be in [0, %g] requests/s (0 = no upper bound)", lim.MaxRate, MaxRate), "load", "limit", "max_rate")
	} else if lim.MaxRate > 0 && lim.MaxRate < lim.MinRate {
		v.add(fmt.Sprintf("%v must be >= limit.min_rate (%v), or 0 for no upper bound", lim.MaxRate, lim.MinRate), "load", "limit", "max_rate")
	}
}

func (v *validator) trials(t *Trials) {
	if t.Min < 2 {
		v.add(fmt.Sprintf("%d: need at least 2 trials per variant and scenario for a verdict (5 or more recommended)", t.Min), "trials", "min")
	} else if t.Min > MaxTrials {
		v.add(fmt.Sprintf("%d must be at most %d", t.Min, MaxTrials), "trials", "min")
	}
	if t.Max < t.Min {
		v.add(fmt.Sprintf("%d must be >= trials.min (%d)", t.Max, t.Min), "trials", "max")
	} else if t.Max > MaxTrials {
		v.add(fmt.Sprintf("%d must be at most %d", t.Max, MaxTrials), "trials", "max")
	}
	if err := t.Order.Valid(); err != nil {
		v.add(err.Error(), "trials", "order")
	}
	if !(t.Alpha > 0 && t.Alpha <= 0.5) {
		v.add(fmt.Sprintf("%v must be in (0, 0.5] (e.g. 0.05)", t.Alpha), "trials", "alpha")
	}
	if !(t.Interference >= 0 && t.Interference <= 1) { // 0: DefaultInterference
		v.add(fmt.Sprintf("%v must be in (0, 1]: the share of the machine's CPUs other work may use during a trial (1 disables the check)", t.Interference), "trials", "interference")
	}
	if err := t.Analysis.Valid(); err != nil {
		v.add(err.Error(), "trials", "analysis")
	}
	if t.Headline != "" && !slices.Contains(HeadlineNames(), t.Headline) {
		msg := fmt.Sprintf("%q is not a metric with a direction", t.Headline)
		if s := Suggest(t.Headline, HeadlineNames()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		v.add(msg+" (allowed: "+strings.Join(HeadlineNames(), ", ")+")", "trials", "headline")
	}
}

func (v *validator) variants(vs []Variant) {
	if len(vs) == 0 {
		v.add("define at least one [[variant]]", "variant")
	}
	names := map[string]int{}
	baseline := -1
	for i, va := range vs {
		el := fmt.Sprintf("variant[%d]", i)
		switch {
		case va.Name == "":
			v.add("is required", el, "name")
		case !variantNameRe.MatchString(va.Name):
			v.add(fmt.Sprintf("%q: use letters, digits, '.', '_', '-', '=' and '+'", va.Name), el, "name")
		default:
			if j, dup := names[va.Name]; dup {
				v.add(fmt.Sprintf("%q is already the name of variant[%d]", va.Name, j), el, "name")
			} else {
				names[va.Name] = i
			}
		}
		if va.Baseline {
			if baseline >= 0 {
				v.add(fmt.Sprintf("only one variant can be the baseline (variant[%d] %q already is)", baseline, vs[baseline].Name), el, "baseline")
			} else {
				baseline = i
			}
		}
		// Names and values go through package capability, the table the
		// agent and both supervisors use too.
		for _, k := range slices.Sorted(maps.Keys(va.PostgREST)) {
			val := va.PostgREST[k]
			if !pgrstKeyRe.MatchString(k) && !strings.HasPrefix(k, "app.settings.") {
				v.add("is not a PostgREST config key (lower-case words joined by '-', e.g. db-pool)", el, "postgrest", k)
				continue
			}
			if k == "db-uri" && !isDBURI(val) {
				v.add(fmt.Sprintf("%q: use \"tcp\", \"unix\" (the lab derives the URI), a postgres:// URI or a key=value connection string", capability.RedactURI(val)), el, "postgrest", k)
				continue
			}
			if _, err := capability.PostgRESTKey(k, val); err != nil {
				v.add(capMsg(err), el, "postgrest", k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(va.PostgreSQL)) {
			if err := capability.PostgreSQL(k, va.PostgreSQL[k]); err != nil {
				v.add(capMsg(err), el, "postgresql", k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(va.Env)) {
			if _, _, err := capability.Env(k, va.Env[k]); err != nil {
				v.add(capMsg(err), el, "env", k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(va.DropIn)) {
			if err := capability.DropIn(k, va.DropIn[k]); err != nil {
				msg := capMsg(err)
				var ce *capability.Error
				if errors.As(err, &ce) && ce.Code == capability.Unknown {
					if s := Suggest(k, capability.DropInKeys()); s != "" {
						msg = fmt.Sprintf("is not an allowed drop-in setting (did you mean %q?)", s)
					}
				}
				v.add(msg, el, "dropin", k)
			}
		}
		if va.Binary != "" && !strings.HasPrefix(va.Binary, "$(") {
			if err := capability.Binary(va.Binary); err != nil {
				v.add(fmt.Sprintf("%q must be an absolute path or a $(VAR) placeholder", va.Binary), el, "binary")
			}
		}
		// The runtime options among the arguments are checked once their
		// $(VAR)s are resolved: Validate runs again after Expand, before a
		// run (session.Load), and an agent checks what it receives.
		argsErr := capability.Args(va.Args)
		if slices.ContainsFunc(va.Args, func(a string) bool { return strings.Contains(a, "$") }) {
			argsErr = nil
			for i, a := range va.Args {
				if argsErr = capability.Arg(i, a); argsErr != nil {
					break
				}
			}
		}
		if argsErr != nil {
			v.add(argsErr.Error(), el, "args") // "args[i]: ...": which argument
		}
	}
}

// capMsg is a capability refusal without the "table.key" the field path
// already says.
func capMsg(err error) string {
	var ce *capability.Error
	if errors.As(err, &ce) {
		return ce.Msg
	}
	return err.Error()
}

// isDBURI accepts the db-uri forms PostgREST and the lab know: the lab's
// "tcp"/"unix", a postgres:// or postgresql:// URI, a key=value connection
// string, or PostgREST's "@/path" (read from a file).
func isDBURI(s string) bool {
	switch {
	case s == "tcp" || s == "unix":
		return true
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		_, err := url.Parse(s)
		return err == nil || strings.Contains(s, "$(")
	case strings.HasPrefix(s, "@") && len(s) > 1:
		return true
	case strings.Contains(s, "="):
		return true
	}
	return false
}

// Suggest returns the candidate closest to s, or "" when none is a likely
// typo (see package didyoumean).
func Suggest(s string, candidates []string) string { return didyoumean.Suggest(s, candidates) }

// Template fields with numbers: {rand LO HI} and {seq START} (package
// loadgen parses every template; this checks their bounds here, so that a
// problem is reported at the scenario's key and line).
var (
	randField = regexp.MustCompile(`\{rand\s+([^\s{}]+)\s+([^\s{}]+)\s*\}`)
	seqField  = regexp.MustCompile(`\{seq\s+([^\s{}]+)\s*\}`)
)

// templates checks the {rand} and {seq} bounds of a custom scenario's
// path, header values and body: {rand LO HI} needs LO <= HI and HI-LO+1
// (the count of values) to fit an int64; {seq START} |START| <= 2^62.
func (v *validator) templates(s Scenario, el string) {
	check := func(text string, field ...string) {
		if msg := templateBounds(text); msg != "" {
			v.add(msg, append([]string{el}, field...)...)
		}
	}
	check(s.Path, "path")
	for _, h := range slices.Sorted(maps.Keys(s.Header)) {
		check(s.Header[h], "header", h)
	}
	check(s.Body, "body")
}

// templateBounds returns the first out-of-bounds field of text, "" if none.
func templateBounds(text string) string {
	for _, m := range randField.FindAllStringSubmatch(text, -1) {
		lo, err1 := strconv.ParseInt(m[1], 10, 64)
		hi, err2 := strconv.ParseInt(m[2], 10, 64)
		if err1 != nil || err2 != nil || lo > hi || uint64(hi)-uint64(lo) >= math.MaxInt64 {
			return fmt.Sprintf("%s: want {rand LO HI} with integers LO <= HI and HI-LO < %d (2^63-1)", m[0], int64(math.MaxInt64))
		}
	}
	for _, m := range seqField.FindAllStringSubmatch(text, -1) {
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || n < -MaxSeqStart || n > MaxSeqStart {
			return fmt.Sprintf("%s: want {seq START} with an integer START, |START| <= %d (2^62)", m[0], MaxSeqStart)
		}
	}
	return ""
}
