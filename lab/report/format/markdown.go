package format

import "strings"

// mdEscaper keeps a Markdown table cell or list item one cell of plain
// text: line breaks become spaces, '|' and backslashes are escaped, and
// '<', '>', '[' and ']' cannot start HTML or a link.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ",
	"<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`)

// MdEscape makes s plain text in Markdown, also inside a table cell.
func MdEscape(s string) string { return mdEscaper.Replace(s) }

// MdCode is s as a code span, also inside a table cell: a fence of more
// backticks than s has in a row, '|' escaped and line breaks as spaces.
func MdCode(s string) string {
	s = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
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
