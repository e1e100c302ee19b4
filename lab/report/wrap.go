package report

import (
	"strings"
	"unicode/utf8"
)

// MarkdownWidth is the widest line report.md writes (in runes) where it
// can break: paragraphs and list items are wrapped, tables are split.
const MarkdownWidth = 120

// wrapLines breaks text into lines of at most width runes at spaces; the first
// line starts with first, the others with rest (e.g. "- " and "  " for a
// list item). A word longer than a line gets a line of its own.
func wrapLines(text string, width int, first, rest string) string {
	var b strings.Builder
	line, n := first, utf8.RuneCountInString(first)
	empty := true
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(w)
		if !empty && n+1+wn > width {
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

// mdItem is a wrapped Markdown list item.
func mdItem(text string) string { return wrapLines(text, MarkdownWidth, "- ", "  ") }

// mdPara is a wrapped Markdown paragraph (followed by a blank line).
func mdPara(text string) string { return wrapLines(text, MarkdownWidth, "", "") + "\n" }

// runeWidth is the widest line of s, in runes.
func runeWidth(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}
