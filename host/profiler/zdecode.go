package profiler

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ghcSuffixes end the symbols GHC emits for Haskell code, longest first.
var ghcSuffixes = []string{"_static_info", "_con_entry", "_con_info", "_closure", "_entry", "_info", "_slow", "_fast", "_srt", "_bytes"}

// moduleName is a decoded Haskell module name, e.g. PostgREST.Query.
var moduleName = regexp.MustCompile(`^[A-Z][A-Za-z0-9_']*(\.[A-Z][A-Za-z0-9_']*)*$`)

// DecodeGHC turns a GHC symbol into the Haskell name it stands for:
// <package>_<Module>_<name>_<suffix> (or <Module>_<name>_<suffix>) becomes
// Module.name, z-decoded. Symbols that are not of that form (C functions,
// the RTS's stg_*, Go functions, local closures) are returned unchanged.
func DecodeGHC(sym string) string {
	rest, ok := "", false
	for _, suf := range ghcSuffixes {
		if strings.HasSuffix(sym, suf) {
			rest, ok = strings.TrimSuffix(sym, suf), true
			break
		}
	}
	if !ok || strings.HasPrefix(sym, "stg_") {
		return sym
	}
	parts := strings.Split(rest, "_")
	if len(parts) < 2 {
		return sym
	}
	modPart, namePart := parts[len(parts)-2], parts[len(parts)-1]
	if len(parts) > 3 {
		return sym // a literal '_' is encoded as zu: more parts mean not GHC
	}
	mod, ok1 := ZDecode(modPart)
	name, ok2 := ZDecode(namePart)
	if !ok1 || !ok2 || name == "" || !moduleName.MatchString(mod) {
		return sym
	}
	return mod + "." + name
}

// zLower and zUpper are GHC's z-encoding escapes (compiler/GHC/Utils/Encoding.hs).
var (
	zLower = map[byte]string{'z': "z", 'a': "&", 'b': "|", 'c': "^", 'd': "$", 'e': "=", 'g': ">", 'h': "#",
		'i': ".", 'l': "<", 'm': "-", 'n': "!", 'p': "+", 'q': "'", 'r': `\`, 's': "/", 't': "*", 'u': "_", 'v': "%"}
	zUpper = map[byte]string{'Z': "Z", 'L': "(", 'R': ")", 'M': "[", 'N': "]", 'C': ":"}
)

// ZDecode decodes one z-encoded name: zz and ZZ, the operator escapes
// (zi '.', zm '-', zd '$', zu '_', zq '\”, zp '+', ZL '(', ...), tuples
// (Z3T "(,,)", Z0T "()", Z2H "(#,#)"), and z<hex>U for other characters.
// It reports false for a malformed encoding.
func ZDecode(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != 'z' && c != 'Z' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return s, false
		}
		d := s[i+1]
		table := zLower
		if c == 'Z' {
			table = zUpper
		}
		if r, ok := table[d]; ok {
			b.WriteString(r)
			i++
			continue
		}
		if d < '0' || d > '9' {
			return s, false
		}
		j := i + 1
		for j < len(s) && isHex(s[j]) && !(c == 'Z' && (s[j] < '0' || s[j] > '9')) {
			j++
		}
		if j >= len(s) {
			return s, false
		}
		digits, end := s[i+1:j], s[j]
		switch {
		case c == 'z' && end == 'U':
			n, err := strconv.ParseUint(digits, 16, 32)
			if err != nil || !utf8.ValidRune(rune(n)) {
				return s, false
			}
			b.WriteRune(rune(n))
		case c == 'Z' && (end == 'T' || end == 'H'):
			n, err := strconv.Atoi(digits)
			if err != nil || n > 64 {
				return s, false
			}
			b.WriteString(tuple(n, end == 'H'))
		default:
			return s, false
		}
		i = j
	}
	return b.String(), true
}

// tuple is the name of the n-tuple constructor; unboxed with hash.
func tuple(n int, unboxed bool) string {
	if !unboxed {
		if n == 0 {
			return "()"
		}
		return "(" + strings.Repeat(",", n-1) + ")"
	}
	switch n {
	case 0:
		return "(##)"
	case 1:
		return "(# #)"
	}
	return "(#" + strings.Repeat(",", n-1) + "#)"
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
