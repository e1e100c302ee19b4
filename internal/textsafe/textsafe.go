// Package textsafe makes text from an untrusted source (an agent's answer, a
// binary's --version) safe to print on a terminal and to put in a report:
// CleanText for one string, CleanStrings for every string in a value.
package textsafe

import (
	"reflect"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxText bounds a string from an untrusted source (an agent's answer), in
// runes; longer strings are cut and end with "…".
const MaxText = 1024

// escapeSeq matches terminal escape sequences: CSI (ESC [ ... final byte),
// OSC (ESC ] ... BEL or ESC \) and two-byte escapes (ESC and one byte).
var escapeSeq = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]`)

// CleanText makes a string from an untrusted source safe to print on a
// terminal and to put in a report: terminal escape sequences are removed,
// line breaks and tabs become spaces, other control characters and
// bidirectional overrides are dropped, invalid UTF-8 becomes U+FFFD, and
// the result is at most MaxText runes. Markdown and HTML still escape it
// for their own syntax.
func CleanText(s string) string {
	if !needsCleaning(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = escapeSeq.ReplaceAllString(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028' || r == '\u2029':
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > MaxText {
		s = string([]rune(s)[:MaxText-1]) + "…"
	}
	return s
}

func needsCleaning(s string) bool {
	if len(s) > MaxText || !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}

// CleanStrings applies CleanText to every string v points to: fields of
// structs (exported ones), elements of slices and arrays, map keys and
// values, through pointers and interfaces. It is how the driver takes an
// agent's answer: once decoded, before anything prints or files it.
func CleanStrings(v any) {
	cleanValue(reflect.ValueOf(v))
}

func cleanValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Interface {
			// The value in an interface cannot be set in place: clean a copy.
			c := reflect.New(v.Elem().Type()).Elem()
			c.Set(v.Elem())
			cleanValue(c)
			if v.CanSet() {
				v.Set(c)
			}
			return
		}
		cleanValue(v.Elem())
	case reflect.String:
		if v.CanSet() {
			v.SetString(CleanText(v.String()))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				cleanValue(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			cleanValue(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(it.Key())
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			cleanValue(k)
			cleanValue(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	}
}
