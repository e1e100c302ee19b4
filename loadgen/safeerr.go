package loadgen

import (
	"errors"
	"fmt"
)

// safeError is a problem of a request with two texts: full quotes the
// input (a path, a header, a field as written), for what the user wrote in
// an experiment file; safe quotes nothing of it, for a targets file, which
// may be a file the user never meant to show (a secret a hostile
// experiment names). Error is full.
type safeError struct {
	safe, full string
	cause      error
}

func (e *safeError) Error() string { return e.full }
func (e *safeError) Unwrap() error { return e.cause }

// plainErr is a problem whose text quotes nothing of the input.
func plainErr(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &safeError{safe: msg, full: msg}
}

// wrapSafe prefixes err: safePrefix in the safe text, fullPrefix (which
// may quote the input) in the full one.
func wrapSafe(safePrefix, fullPrefix string, err error) error {
	return &safeError{safe: safePrefix + ": " + safeMessage(err), full: fullPrefix + ": " + err.Error(), cause: err}
}

// SafeMessage is the text of an error of CheckRequest (or Config.Validate)
// without what it quotes of the request: for a request read from a file
// (a body_file) whose content must not be shown. An error that does not
// come from the request checks becomes a generic message.
func SafeMessage(err error) string { return safeMessage(err) }

// safeMessage is err's text without what it quotes of the input; an error
// that does not say it is safe becomes a generic message.
func safeMessage(err error) string {
	var se *safeError
	if errors.As(err, &se) {
		return se.safe
	}
	return "the request cannot be sent"
}
