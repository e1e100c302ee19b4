package capability

import (
	"unicode"
)

// Text refuses what a single-line value must not hold: control characters
// (a line break would start a new line in a config file or unit), line and
// paragraph separators (U+2028, U+2029, which some readers treat as line
// breaks) and other non-printing or invalid characters. where names the
// value in the error.
func Text(where, s string) error {
	for i, r := range s {
		if r == unicode.ReplacementChar {
			return fail(Invalid, where, "invalid UTF-8 or U+FFFD at byte %d (values are printable single-line text)", i)
		}
		if r == ' ' {
			continue
		}
		if !unicode.IsPrint(r) {
			return fail(Invalid, where, "non-printing character %U at byte %d (values are printable single-line text)", r, i)
		}
	}
	return nil
}
