package capability

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// MinSecretLen is the shortest value Secrets hides by its text: a shorter
// one would hide common words of every message (and is hardly a secret);
// RedactText's patterns still hide it inside a connection string.
const MinSecretLen = 4

// Secrets are secret values the lab knows (a target config's jwt-secret
// and db-uri passwords, whatever Secret says of its keys, a variant's,
// the admin URI's password), so that free text (an error, a log tail) is
// cleaned of each by exact match, in the forms it may be written in, as
// well as by RedactText's patterns, which only see the shapes of
// connection strings: a jwt-secret a program echoes, a password with '@'
// or a quote that a pattern cuts short, a config line a conflict quotes.
// RedactText and Wrap are the one place free text is redacted. A nil or
// zero Secrets knows nothing (only the patterns apply); it is safe for
// concurrent use.
type Secrets struct {
	mu   sync.RWMutex
	vals map[string]string // value as it may appear -> what replaces it
	rep  *strings.Replacer // vals, longest first; nil when stale
}

// Add learns the value of the PostgREST key unless the key's value is
// shown (postgrest.ShownOf): a connection string (db-uri) whole, shown as
// RedactURI shows it, and each password in it; any other value whole.
func (s *Secrets) Add(key, val string) {
	shown := postgrest.ShownOf(key)
	if shown == postgrest.Visible || LabDBURI(val) {
		return
	}
	if shown == postgrest.PasswordsHidden {
		s.AddURI(val)
		return
	}
	s.add(val, RedactedValue)
}

// AddEnv is Add for an environment variable (PGRST_JWT_SECRET).
func (s *Secrets) AddEnv(name, val string) {
	if key, ok := postgrest.EnvKey(name); ok {
		s.Add(key, val)
	}
}

// AddURI learns a connection string (the lab's admin URI, a db-uri):
// the string whole, replaced by its RedactURI form, and each of its
// passwords (connstr.Passwords).
func (s *Secrets) AddURI(uri string) {
	s.add(uri, RedactURI(uri))
	for _, pw := range connstr.Passwords(uri) {
		s.add(pw, connstr.Hidden)
	}
}

// add learns v and its Go-quoted form (%q in a message), unless v is
// shorter than MinSecretLen.
func (s *Secrets) add(v, by string) {
	if len(v) < MinSecretLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vals == nil {
		s.vals = map[string]string{}
	}
	for _, form := range []string{v, strings.Trim(strconv.Quote(v), `"`)} {
		if _, ok := s.vals[form]; !ok {
			s.vals[form], s.rep = by, nil
		}
	}
}

// RedactText hides the known secrets in text (the longest first, so a
// whole connection string goes before its password), then what
// RedactText's patterns find.
func (s *Secrets) RedactText(text string) string {
	if s != nil {
		text = s.replacer().Replace(text)
	}
	return RedactText(text)
}

func (s *Secrets) replacer() *strings.Replacer {
	s.mu.RLock()
	r := s.rep
	s.mu.RUnlock()
	if r != nil {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rep == nil {
		olds := make([]string, 0, len(s.vals))
		for v := range s.vals {
			olds = append(olds, v)
		}
		slices.SortFunc(olds, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
		pairs := make([]string, 0, 2*len(olds))
		for _, v := range olds {
			pairs = append(pairs, v, s.vals[v])
		}
		s.rep = strings.NewReplacer(pairs...)
	}
	return s.rep
}

// Wrap returns err with its text redacted (RedactText); errors.Is and
// errors.As still see err. nil stays nil, and an error with nothing to
// hide is returned as it is.
func (s *Secrets) Wrap(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := s.RedactText(msg); red != msg {
		return &redactedError{msg: red, err: err}
	}
	return err
}

// redactedError is an error whose text was redacted.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
