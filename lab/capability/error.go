package capability

import "fmt"

// Code says why a setting is refused; callers map it to their own errors
// (the agent to HTTP 422 and 403).
type Code int

const (
	// Invalid is a malformed name or value (HTTP 422).
	Invalid Code = iota
	// Unknown is a name the table does not know (HTTP 422, with a suggestion).
	Unknown
	// Never is a setting no variant may change anywhere (HTTP 403): it
	// names an address, a path or a file, or it would run code.
	Never
)

// Error is a refused setting: Where names it (e.g. "postgrest.db-uri"),
// Msg says what is wrong.
type Error struct {
	Code  Code
	Where string
	Msg   string
}

func (e *Error) Error() string {
	if e.Where == "" {
		return e.Msg
	}
	return e.Where + ": " + e.Msg
}

func fail(code Code, where, format string, args ...any) *Error {
	return &Error{Code: code, Where: where, Msg: fmt.Sprintf(format, args...)}
}
