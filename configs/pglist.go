package configs

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// listSettings are PostgreSQL's list-valued settings whose elements ALTER
// SYSTEM quotes as identifiers (GUC_LIST_QUOTE in guc_tables.c; pg_settings
// does not expose the flag). The value says whether an unquoted element is
// an identifier, downcased as PostgreSQL does (SplitIdentifierString), or
// a name or path kept as written (SplitDirectoriesString).
// output_plugin_libraries is Debian's.
var listSettings = map[string]bool{
	"search_path":               true,
	"temp_tablespaces":          true,
	"local_preload_libraries":   false,
	"session_preload_libraries": false,
	"shared_preload_libraries":  false,
	"unix_socket_directories":   false,
	"output_plugin_libraries":   false,
}

// splitList splits a list-valued setting as PostgreSQL reads it in
// postgresql.conf: elements separated by commas, white space around them
// ignored, an element in double quotes taken literally ("" is a quote);
// with identifiers, an unquoted element is downcased (ASCII) and may not
// contain white space. An empty value is the empty list.
func splitList(v string, identifiers bool) ([]string, error) {
	var out []string
	i := 0
	skip := func() {
		for i < len(v) && isSpace(v[i]) {
			i++
		}
	}
	skip()
	if i == len(v) {
		return nil, nil
	}
	for {
		var el strings.Builder
		if v[i] == '"' {
			i++
			for {
				if i >= len(v) {
					return nil, fmt.Errorf("unterminated quoted element in list %q", v)
				}
				if v[i] == '"' {
					if i+1 < len(v) && v[i+1] == '"' {
						el.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				el.WriteByte(v[i])
				i++
			}
			if el.Len() == 0 && identifiers {
				return nil, fmt.Errorf("empty quoted element in list %q", v)
			}
		} else {
			start := i
			for i < len(v) && v[i] != ',' && !(identifiers && isSpace(v[i])) {
				i++
			}
			e := strings.TrimRight(v[start:i], " \t\n\r\f\v")
			if e == "" {
				return nil, fmt.Errorf("empty element in list %q", v)
			}
			if identifiers {
				e = asciiLower(e)
			}
			el.WriteString(e)
		}
		out = append(out, el.String())
		skip()
		if i == len(v) {
			return out, nil
		}
		if v[i] != ',' {
			return nil, fmt.Errorf("list %q: expected a comma after %q", v, el.String())
		}
		i++
		skip()
		if i == len(v) {
			return nil, fmt.Errorf("list %q ends with a comma", v)
		}
	}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// quoteWhole is what ALTER SYSTEM writes for a value given as one literal
// to a list setting that quotes its elements, when the value needs quotes:
// the whole value as one quoted identifier.
func quoteWhole(v string) string { return `"` + strings.ReplaceAll(v, `"`, `""`) + `"` }

// sameSetting reports whether the postgresql.auto.conf value got (as
// pg_file_settings shows it) is what setting name to want wrote: the same
// text, the same list elements, or want as one quoted element (ALTER
// SYSTEM with want as a single literal: a list setting this package does
// not know, or a journal of a lab before list settings were split).
func sameSetting(name, got, want string) bool {
	if got == want || got == quoteWhole(want) {
		return true
	}
	ident, ok := listSettings[name]
	if !ok {
		return false
	}
	a, err1 := splitList(got, ident)
	b, err2 := splitList(want, ident)
	if err1 != nil || err2 != nil || len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// setSQL is the ALTER SYSTEM statement that gives setting name the value
// v means in postgresql.conf. A known list setting gets its elements as
// separate literals, which ALTER SYSTEM quotes one by one (one literal
// "public, x" would be one schema named "public, x"); an empty list is
// given as ” (written "", as SET search_path = ” does). Other settings
// get v as one literal, which ALTER SYSTEM writes unchanged.
func setSQL(name, v string, list, identifiers bool) (string, error) {
	lits := []string{v}
	if list {
		els, err := splitList(v, identifiers)
		if err != nil {
			return "", fmt.Errorf("PostgreSQL setting %s: %w", name, err)
		}
		if len(els) > 0 {
			lits = els
		}
	}
	q := make([]string, len(lits))
	for i, l := range lits {
		q[i] = escapeLiteral(l)
	}
	return "ALTER SYSTEM SET " + pgx.Identifier{name}.Sanitize() + " = " + strings.Join(q, ", "), nil
}

// setSetting runs ALTER SYSTEM for setting name (nil: RESET) and returns
// what postgresql.auto.conf then holds for it (pg_file_settings; in false
// after a RESET). A setting that turns out to quote the whole value as one
// list element (a list setting not in listSettings, e.g. an extension's)
// is set again with the value split into its elements.
func setSetting(ctx context.Context, conn *pgx.Conn, name string, value *string) (got string, in bool, err error) {
	if value == nil {
		sql := "ALTER SYSTEM RESET " + pgx.Identifier{name}.Sanitize()
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", false, fmt.Errorf("%s: %w", sql, err)
		}
		got, in, err := autoConfValue(ctx, conn, name)
		return got, in, err
	}
	ident, list := listSettings[name]
	for {
		sql, err := setSQL(name, *value, list, ident)
		if err != nil {
			return "", false, err
		}
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", false, fmt.Errorf("%s: %w", sql, err)
		}
		got, in, err := autoConfValue(ctx, conn, name)
		if err != nil || list || got == *value || got != quoteWhole(*value) {
			return got, in, err
		}
		if els, _ := splitList(*value, false); len(els) == 0 {
			return got, in, nil
		}
		list = true // and retry once, as a list of names kept as written
	}
}

// autoConfValue is the value postgresql.auto.conf sets for name (the last
// one), as pg_file_settings shows it.
func autoConfValue(ctx context.Context, conn *pgx.Conn, name string) (string, bool, error) {
	auto, _, err := autoConf(ctx, conn)
	if err != nil {
		return "", false, err
	}
	v, in := auto[name]
	return v, in, nil
}

// escapeLiteral quotes v as an escape string literal (E'...'), which
// means the same whatever standard_conforming_strings says: in an
// ordinary literal with it off, a backslash before a quote escapes it, so
// a value could end the literal and add a statement of its own.
func escapeLiteral(v string) string {
	return "E'" + strings.NewReplacer(`\`, `\\`, "'", "''").Replace(v) + "'"
}
