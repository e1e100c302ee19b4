package report

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// mdEscaper keeps a Markdown table cell or list item one cell of plain
// text: line breaks become spaces, '|' and backslashes are escaped, and
// '<', '>', '[' and ']' cannot start HTML or a link.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ",
	"<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`)

// mdEscape makes s plain text in Markdown, also inside a table cell.
func mdEscape(s string) string { return mdEscaper.Replace(s) }

// mdCode is s as a code span, also inside a table cell: a fence of more
// backticks than s has in a row, '|' escaped and line breaks as spaces.
func mdCode(s string) string {
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

// mdUnitOf is unitOf for Markdown: ", unit `name`" or "".
func mdUnitOf(t lab.TargetInfo) string {
	if t.Unit == "" {
		return ""
	}
	return ", unit " + mdCode(t.Unit)
}
