// Package query parses PostgREST's query-string language into a Request:
// select (columns, aliases, casts, nested embeds with hints), horizontal
// filters (eq, neq, gt, gte, lt, lte, like, ilike, in, is, each optionally
// negated with not.), order, limit and offset, for the root and for embedded
// resources (track.order=..., genre.name=eq...), and ?columns= for inserts.
//
// It is pure: it knows nothing about the schema. Errors are *apierr.Error with
// code PGRST100, so they can be sent to the client as they are.
package query
