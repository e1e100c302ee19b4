// Package textsafe makes text from an untrusted source (an agent's answer, a
// binary's --version, a file, a git commit's subject) safe to print on a
// terminal and to put in a report: CleanText for one string (Plain without
// its bound on length, Lines keeping line breaks), CleanStrings for every
// string in a value, Fprintf for a line printed on a terminal. It is the
// one terminal escaper: the Markdown escapers of lab/report/format start
// with Plain, the HTML pages pass through Lines.
package textsafe

import (
	"fmt"
	"io"
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
// terminal and to put in a report: Plain, cut to at most MaxText runes
// (ending with "…"). Markdown and HTML still escape it for their own
// syntax.
func CleanText(s string) string {
	s = Plain(s)
	if utf8.RuneCountInString(s) > MaxText {
		s = string([]rune(s)[:MaxText-1]) + "…"
	}
	return s
}

// Plain is s on one line with nothing a terminal acts on: terminal escape
// sequences (ESC and C1 CSI) are removed, line breaks and tabs become
// spaces, other control characters (C0, DEL, C1, BEL) and bidirectional
// overrides are dropped, invalid UTF-8 becomes U+FFFD. Unlike CleanText,
// it keeps s's length: the Markdown escapers of lab/report/format start
// with it.
func Plain(s string) string { return clean(s, false) }

// Lines is Plain for text of several lines (a rendered page, an error of
// several lines): line feeds and tabs are kept, carriage returns dropped.
func Lines(s string) string { return clean(s, true) }

func clean(s string, lines bool) string {
	if !needsCleaning(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = escapeSeq.ReplaceAllString(s, "")
	return strings.Map(func(r rune) rune {
		switch {
		case lines && (r == '\n' || r == '\t'):
			return r
		case lines && r == '\r':
			return -1
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028' || r == '\u2029':
			return -1
		}
		return r
	}, s)
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

// Fprintf is fmt.Fprintf for a terminal: every argument that is a string
// (of any string type) or an error goes through CleanText first, so text
// from a file, an agent, a server or git prints as one line with nothing a
// terminal would act on. Other arguments print as fmt prints them.
func Fprintf(w io.Writer, format string, args ...any) (int, error) {
	clean := make([]any, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case string:
			clean[i] = CleanText(x)
		case error:
			clean[i] = CleanText(x.Error())
		default:
			if v := reflect.ValueOf(a); v.Kind() == reflect.String {
				if s, ok := a.(fmt.Stringer); ok {
					clean[i] = CleanText(s.String())
				} else {
					clean[i] = CleanText(v.String())
				}
			} else {
				clean[i] = a
			}
		}
	}
	return fmt.Fprintf(w, format, clean...)
}
