package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
)

// decode parses JSON keeping numbers exact.
func decode(t testing.TB, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %q: %v", trunc(b), err)
	}
	return v
}

// canon sorts arrays by their elements' canonical text: neither PostgREST
// nor the SQL it is compared with promise an order without ORDER BY.
func canon(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canon(e)
		}
		sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
		return out
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = canon(e)
		}
		return m
	}
	return v
}

func key(v any) string { b, _ := json.Marshal(v); return string(b) }

// jsonEqual fails unless got and want are the same JSON (arrays compared as
// multisets).
func jsonEqual(t testing.TB, what string, got, want []byte) {
	t.Helper()
	g, w := canon(decode(t, got)), canon(decode(t, want))
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: body differs from the SQL equivalent\n got: %s\nwant: %s", what, trunc(got), trunc(want))
	}
}

func trunc(b []byte) string {
	if len(b) > 400 {
		return fmt.Sprintf("%s... (%d bytes)", b[:400], len(b))
	}
	return string(b)
}
