// Package apierr is postgrest-mini's error value: PostgREST's JSON error body
// {code, message, details, hint} together with its HTTP status, and the
// mapping from PostgreSQL errors (SQLSTATE) to statuses that PostgREST uses.
package apierr
