package apierr

import "fmt"

// The PostgREST error codes postgrest-mini produces itself.

// ParseError is PGRST100: a malformed query string (select, filter, order, limit).
func ParseError(what, details string) *Error {
	return New(400, "PGRST100", fmt.Sprintf("%q", what)).WithDetails(details)
}

// InvalidBody is PGRST102: the request body is not acceptable JSON.
func InvalidBody(details string) *Error {
	e := New(400, "PGRST102", "Empty or invalid json")
	if details != "" {
		e.Details = details
	}
	return e
}

// UnknownColumn is PGRST204: a payload/columns key that is not a column.
func UnknownColumn(col, table string) *Error {
	return New(400, "PGRST204", fmt.Sprintf("Could not find the '%s' column of '%s' in the schema cache", col, table))
}

// UnknownTable is PGRST205.
func UnknownTable(schema, table string) *Error {
	return New(404, "PGRST205", fmt.Sprintf("Could not find the table '%s.%s' in the schema cache", schema, table))
}

// NoRelationship is PGRST200: an embed with no foreign key between the two.
func NoRelationship(from, to string) *Error {
	return New(400, "PGRST200", fmt.Sprintf("Could not find a relationship between '%s' and '%s' in the schema cache", from, to)).
		WithHint("Verify that '" + from + "' and '" + to + "' exist in the schema and that there is a foreign key relationship between them. If a new relationship was created, try reloading the schema cache.")
}

// AmbiguousRelationship is PGRST201: several foreign keys fit an embed.
func AmbiguousRelationship(from, to string, candidates []string) *Error {
	return New(300, "PGRST201", fmt.Sprintf("Could not embed because more than one relationship was found for '%s' and '%s'", from, to)).
		WithHint(fmt.Sprintf("Try changing '%s' to one of %v", to, candidates))
}

// UnknownFunction is PGRST202.
func UnknownFunction(schema, name string, params []string) *Error {
	with := "without parameters"
	if len(params) > 0 {
		with = "with parameters " + join(params)
	}
	return New(404, "PGRST202", fmt.Sprintf("Could not find the function %s.%s%s in the schema cache", schema, name, paren(params))).
		WithDetails(fmt.Sprintf("Searched for the function %s.%s %s, but no matches were found in the schema cache.", schema, name, with))
}

// SchemaCacheNotReady is PGRST002 (503): the schema cache is not loaded yet.
func SchemaCacheNotReady() *Error {
	return New(503, "PGRST002", "Could not query the database for the schema cache. Retrying.")
}

// PoolTimeout is PGRST003 (504): no pool connection within db-pool-acquisition-timeout.
func PoolTimeout() *Error {
	return New(504, "PGRST003", "Timed out acquiring connection from connection pool.")
}

// DBConnection is PGRST001 (503): the database could not be reached.
func DBConnection(err error) *Error {
	return New(503, "PGRST001", "Database client error. Retrying the connection.").WithDetails(err.Error())
}

// InvalidPath is PGRST125 (404).
func InvalidPath() *Error { return New(404, "PGRST125", "Invalid path specified in request URL") }

// UnsupportedMethod is PGRST117 (405).
func UnsupportedMethod(m string) *Error {
	return New(405, "PGRST117", "Unsupported HTTP method: "+m)
}

// AnonDisabled is PGRST302 (401): no db-anon-role and no JWT.
func AnonDisabled() *Error { return New(401, "PGRST302", "Anonymous access is disabled") }

func join(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

func paren(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return "(" + join(xs) + ")"
}

// NotEmbedded is PGRST108: a filter, order or limit on a path that the
// select does not embed.
func NotEmbedded(path string) *Error {
	return New(400, "PGRST108", fmt.Sprintf("'%s' is not an embedded resource in this request", path)).
		WithHint(fmt.Sprintf("Verify that '%s' is included in the 'select' query parameter.", path))
}
