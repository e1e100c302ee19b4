package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Error is an API error as PostgREST renders it. Details and Hint are nil
// (JSON null) when absent.
type Error struct {
	Status  int
	Code    string
	Message string
	Details any
	Hint    any
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// JSON is the response body: {"code":..,"details":..,"hint":..,"message":..}.
func (e *Error) JSON() []byte {
	b, err := json.Marshal(struct {
		Code    string `json:"code"`
		Details any    `json:"details"`
		Hint    any    `json:"hint"`
		Message string `json:"message"`
	}{e.Code, e.Details, e.Hint, e.Message})
	if err != nil { // cannot happen with strings and nil
		return []byte(`{"code":"PGRST000","details":null,"hint":null,"message":"error encoding error"}`)
	}
	return b
}

// New builds an Error.
func New(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// WithDetails sets details and returns e.
func (e *Error) WithDetails(d string) *Error { e.Details = d; return e }

// WithHint sets the hint and returns e.
func (e *Error) WithHint(h string) *Error { e.Hint = h; return e }

// WithStatus sets the HTTP status and returns e.
func (e *Error) WithStatus(status int) *Error { e.Status = status; return e }

// As returns err as an *Error; any other error becomes a 500 PGRST000.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return New(500, "PGRST000", err.Error())
}
