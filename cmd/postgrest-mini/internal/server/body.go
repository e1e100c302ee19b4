package server

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

// insertBody validates a POST body (a JSON object or an array of objects)
// and returns it as a JSON array with the columns to insert: ?columns= when
// given, else the keys of the objects, which must all have the same keys.
func insertBody(raw []byte, columns []string, t *schema.Table) (string, []string, *apierr.Error) {
	if !utf8.Valid(raw) {
		return "", nil, apierr.InvalidBody("the body is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(raw)
	var rows []map[string]json.RawMessage
	switch {
	case len(trimmed) == 0:
		return "", nil, apierr.InvalidBody("")
	case trimmed[0] == '{':
		var one map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &one); err != nil {
			return "", nil, apierr.InvalidBody(err.Error())
		}
		rows = []map[string]json.RawMessage{one}
		trimmed = append(append([]byte{'['}, trimmed...), ']')
	case trimmed[0] == '[':
		if err := json.Unmarshal(trimmed, &rows); err != nil {
			return "", nil, apierr.InvalidBody(err.Error())
		}
	default:
		return "", nil, apierr.InvalidBody("expecting a JSON object or an array of objects")
	}
	cols := columns
	if cols == nil {
		keys, err := sameKeys(rows)
		if err != nil {
			return "", nil, err
		}
		cols = keys
	}
	for _, c := range cols {
		if _, ok := t.Column(c); !ok {
			return "", nil, apierr.UnknownColumn(c, t.Name)
		}
	}
	return string(trimmed), cols, nil
}

// patchBody validates a PATCH body: one JSON object. It returns the object
// and the columns to set (?columns= or its keys), all checked to exist.
func patchBody(raw []byte, columns []string, t *schema.Table) (string, []string, *apierr.Error) {
	if !utf8.Valid(raw) {
		return "", nil, apierr.InvalidBody("the body is not valid UTF-8")
	}
	trimmed := bytes.TrimSpace(raw)
	var obj map[string]json.RawMessage
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return "", nil, apierr.InvalidBody("expecting a JSON object")
	}
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return "", nil, apierr.InvalidBody(err.Error())
	}
	cols := columns
	if cols == nil {
		cols = slices.Sorted(maps.Keys(obj))
	}
	for _, c := range cols {
		if _, ok := t.Column(c); !ok {
			return "", nil, apierr.UnknownColumn(c, t.Name)
		}
	}
	return string(trimmed), cols, nil
}

func sameKeys(rows []map[string]json.RawMessage) ([]string, *apierr.Error) {
	if len(rows) == 0 {
		return []string{}, nil
	}
	keys := slices.Sorted(maps.Keys(rows[0]))
	for _, r := range rows[1:] {
		if !slices.Equal(keys, slices.Sorted(maps.Keys(r))) {
			return nil, apierr.InvalidBody("All object keys must match")
		}
	}
	return keys, nil
}

// containsToken reports whether a comma-separated header holds tok.
func containsToken(h, tok string) bool {
	for _, p := range strings.Split(h, ",") {
		if strings.TrimSpace(p) == tok {
			return true
		}
	}
	return false
}
