package lab

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// InternalError is a panic (a bug, never bad input: validation refuses
// that) caught while running an experiment. Runner.Run recovers it, ends
// the run and restores the server like on any other error. Error says it
// is internal and what panicked; the stack is kept in Stack, for a log or
// a debug file, never in the text (which reaches the terminal and
// run.json).
type InternalError struct {
	Where string
	Value any
	Stack []byte
}

// NewInternalError records a recovered panic p with the current stack.
func NewInternalError(where string, p any) *InternalError {
	return &InternalError{Where: where, Value: p, Stack: debug.Stack()}
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error (a bug in pgrst-lab) in %s: %v", e.Where, e.Value)
}

// PanicStack returns the stack of the panic.
func (e *InternalError) PanicStack() []byte { return e.Stack }

// PanicStack returns the stack of the first internal error in err: an
// *InternalError or an adapter's error with a PanicStack method (the load
// generator's). nil when err holds none.
func PanicStack(err error) []byte {
	var ps interface{ PanicStack() []byte }
	if errors.As(err, &ps) {
		return ps.PanicStack()
	}
	return nil
}

// IsInternal reports whether err holds an internal error: a run then
// stops instead of recording a failed trial and going on.
func IsInternal(err error) bool { return PanicStack(err) != nil }
