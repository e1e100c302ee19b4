// Package interp is the one $(VAR) grammar of the lab, the one PostgREST's
// config syntax (configurator-pg) uses: "$(NAME)" is replaced by the value
// of NAME, "$$" is a literal "$", and any other "$", an unterminated "$("
// or an empty name "$()" is a syntax error. PostgREST config files
// (package configs) and the variants' binary and args of experiment files
// (package experiments) are both expanded by Expand; each words the errors
// for its own readers (a syntax error is a *SyntaxError with its Kind).
//
// It is a leaf: it imports only the standard library.
package interp
