// Package sqlgen turns a parsed request (package query) and the schema cache
// into one SQL statement that builds the whole JSON response in PostgreSQL,
// the way PostgREST does: json_agg over the rows, embeds as correlated
// subqueries (row_to_json for many-to-one, json_agg for one-to-many, nested
// to any depth). Every value is a bind parameter; every identifier is quoted
// with pgx.Identifier.
//
// Each Statement returns one row of three columns: the row count (int8),
// the exact total for Prefer: count=exact (int8, else NULL) and the body
// (text).
package sqlgen
