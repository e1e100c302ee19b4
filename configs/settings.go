package configs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Settings are resolved PostgREST settings, key -> text, as Load returns
// them.
type Settings map[string]string

// get returns the value of key or, when unset or empty, of one of its old
// aliases (db-pool-max-idletime <- db-pool-timeout, db-schemas <- db-schema,
// ...). PostgREST treats an empty string as unset.
func (s Settings) get(key string) (string, string, bool) {
	if v, ok := s[key]; ok && v != "" {
		return key, v, true
	}
	for _, alias := range postgrest.AliasesOf(key) {
		if v, ok := s[alias]; ok && v != "" {
			return alias, v, true
		}
	}
	return key, "", false
}

// String returns the key's text, or def when unset or empty.
func (s Settings) String(key, def string) string {
	if _, v, ok := s.get(key); ok {
		return v
	}
	return def
}

// Int returns the key as an integer, def when unset; a value that is not an
// integer is an error naming the key.
func (s Settings) Int(key string, def int) (int, error) {
	name, v, ok := s.get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return def, fmt.Errorf("config key %s = %q: not an integer", name, v)
	}
	return n, nil
}

// Bool returns the key as a boolean (true/false/on/off in any case, or an
// integer: > 0 is true), def when unset; anything else is an error naming
// the key.
func (s Settings) Bool(key string, def bool) (bool, error) {
	name, v, ok := s.get(key)
	if !ok {
		return def, nil
	}
	b, err := parseBool(v)
	if err != nil {
		return def, fmt.Errorf("config key %s = %q: %w", name, v, err)
	}
	return b, nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on":
		return true, nil
	case "false", "off":
		return false, nil
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		return n > 0, nil
	}
	return false, fmt.Errorf("not a boolean (true, false, on, off)")
}

// List returns a comma-separated key as its trimmed items, def when unset.
func (s Settings) List(key string, def []string) []string {
	_, v, ok := s.get(key)
	if !ok {
		return def
	}
	parts := strings.Split(v, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
