package configs

import (
	"fmt"
	"strings"
)

// SyntaxError is a config file that configurator-pg would refuse.
type SyntaxError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// KeyError is a key or value the catalogue refuses.
type KeyError struct {
	Key     string
	Msg     string
	Suggest string   // closest known key, for an unknown key
	Allowed []string // allowed values, for an enum
}

func (e *KeyError) Error() string {
	s := fmt.Sprintf("config key %q: %s", e.Key, e.Msg)
	if e.Suggest != "" {
		s += fmt.Sprintf(" (did you mean %q?)", e.Suggest)
	}
	if len(e.Allowed) > 0 {
		s += " (allowed: " + strings.Join(e.Allowed, ", ") + ")"
	}
	return s
}
