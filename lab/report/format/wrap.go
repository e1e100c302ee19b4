package format

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// blockStart matches a word that, first on a line of Markdown, would start
// a block of its own: a code fence (which takes the rest of the page, and
// the closing fence of a code span of MdCode's is one), a heading, a list
// item, a thematic break or a setext underline, a block quote.
var blockStart = regexp.MustCompile("^(```|~~~|#{1,6}$|[-=_*+]+$|[0-9]{1,9}[.)]$|>)")

// WrapLines breaks text into lines of at most width runes at spaces; the
// first line starts with first, the others with rest (e.g. "- " and "  "
// for a list item). A word longer than a line gets a line of its own. No
// break is made before a word that would start a Markdown block
// (blockStart): the line is then longer, and the text one paragraph
// whatever it holds.
func WrapLines(text string, width int, first, rest string) string {
	var b strings.Builder
	line, n := first, utf8.RuneCountInString(first)
	empty := true
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(w)
		if !empty && n+1+wn > width && !blockStart.MatchString(w) {
			b.WriteString(line + "\n")
			line, n, empty = rest, utf8.RuneCountInString(rest), true
		}
		if !empty {
			line += " "
			n++
		}
		line += w
		n += wn
		empty = false
	}
	b.WriteString(line + "\n")
	return b.String()
}

// Wrap breaks s into lines of at most n characters at spaces.
func Wrap(s string, n int) string { return strings.TrimSuffix(WrapLines(s, n, "", ""), "\n") }

// RuneWidth is the widest line of s, in runes.
func RuneWidth(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// Clip cuts s to n runes, ending with "…" when cut.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
