package apierr

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// FromPG turns a PostgreSQL error into PostgREST's body and status. rpc
// selects 404 for an undefined function; anon selects 401 over 403 for
// missing privileges. Other errors give nil.
func FromPG(err error, rpc, anon bool) *Error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil
	}
	e := &Error{Status: Status(pe.Code, rpc, anon), Code: pe.Code, Message: pe.Message}
	if pe.Detail != "" {
		e.Details = pe.Detail
	}
	if pe.Hint != "" {
		e.Hint = pe.Hint
	}
	return e
}

// Status is PostgREST's HTTP status for a SQLSTATE (Error.hs, pgErrorStatus).
func Status(code string, rpc, anon bool) int {
	switch code {
	case "23503", "23505":
		return 409
	case "25006":
		return 405
	case "53400":
		return 500
	case "57P01":
		return 503
	case "P0001":
		return 400
	case "42883":
		if rpc {
			return 404
		}
		return 400
	case "42P01":
		return 404
	case "42P17":
		return 500
	case "42501":
		if anon {
			return 401
		}
		return 403
	}
	if len(code) < 2 {
		return 500
	}
	switch code[:2] {
	case "08":
		return 503
	case "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX":
		return 500
	case "0L", "0P", "28":
		return 403
	case "53":
		return 503
	}
	return 400
}
