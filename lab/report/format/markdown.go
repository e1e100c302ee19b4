package format

import (
	"net/url"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// mdEscaper keeps a Markdown table cell or list item one cell of plain
// text: '|' and backslashes are escaped, '<', '>', '[' and ']' cannot
// start HTML or a link, and '`' cannot open a code span (which would take
// the text up to the next backtick, a code span of ours included, out of
// its escaping).
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "`", "\\`")

// MdEscape makes s plain text in Markdown, also inside a table cell: one
// line (textsafe.Plain: line breaks as spaces, no terminal escapes or
// other control characters), its Markdown and HTML syntax escaped. Every
// string from a file, an agent, a server or git goes into Markdown
// through MdEscape or MdCode.
func MdEscape(s string) string { return mdEscaper.Replace(textsafe.Plain(s)) }

// MdCode is s as a code span, also inside a table cell: one line
// (textsafe.Plain), '|' escaped, and a fence of more backticks than s has
// in a row (CommonMark's rule), so no backtick of s ends the span.
func MdCode(s string) string {
	s = strings.ReplaceAll(textsafe.Plain(s), "|", `\|`)
	fence, run := "`", 0
	for _, r := range s {
		if r == '`' {
			run++
			if run >= len(fence) {
				fence += "`"
			}
		} else {
			run = 0
		}
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || len(fence) > 1 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// MarkdownWidth is the widest line a Markdown report writes (in runes)
// where it can break: paragraphs and list items are wrapped, tables are
// split.
const MarkdownWidth = 120

// MdItem is a wrapped Markdown list item.
func MdItem(text string) string { return WrapLines(text, MarkdownWidth, "- ", "  ") }

// MdPara is a wrapped Markdown paragraph (followed by a blank line).
func MdPara(text string) string { return WrapLines(text, MarkdownWidth, "", "") + "\n" }

// MdLink is a Markdown link with text (escaped by MdEscape) to a file at a
// relative, slash-separated path: each segment percent-encoded, and "./"
// in front, so no part of path ends the link or reads as a scheme
// (javascript:).
func MdLink(text, path string) string {
	segs := strings.Split(textsafe.Plain(path), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	p := strings.Join(segs, "/")
	if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
		p = "./" + strings.TrimPrefix(p, "/")
	}
	return "[" + MdEscape(text) + "](" + p + ")"
}
