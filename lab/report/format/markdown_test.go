package format

import (
	"strings"
	"testing"
)

// Issue 41, finding 4: the Markdown escapers' own rules, which the
// renderers' test (lab/report, TestHostileStrings...) checks through a
// real CommonMark renderer.
func TestMarkdownEscapers(t *testing.T) {
	for in, want := range map[string]string{
		"a`b":                   "`` a`b ``",
		"``x":                   "``` ``x ```",
		"plain":                 "`plain`",
		"a|b\nc\x1b[2Jd\x07":    "`a\\|b cd`",
		"x```y`":                "```` x```y` ````",
		"<script>](javascript:": "`<script>](javascript:`",
	} {
		if got := MdCode(in); got != want {
			t.Errorf("MdCode(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := MdEscape("a`b <i>[x](javascript:y)|\n\x1b[2J"), "a\\`b &lt;i&gt;\\[x\\](javascript:y)\\| "; got != want {
		t.Errorf("MdEscape = %q, want %q", got, want)
	}
	for path, want := range map[string]string{
		"javascript:alert(1)/report.md": "[r](./javascript:alert%281%29/report.md)",
		"../b c/report.md":              "[r](../b%20c/report.md)",
		"a)](x/report.md":               "[r](./a%29%5D%28x/report.md)",
	} {
		if got := MdLink("r", path); got != want {
			t.Errorf("MdLink(%q) = %q, want %q", path, got, want)
		}
	}
}

// A wrapped line never starts with a word that would open a Markdown
// block: the closing fence of a long code span stays on its line.
func TestWrapLinesStartsNoBlock(t *testing.T) {
	text := strings.Repeat("word ", 20) + MdCode("a``b "+strings.Repeat("x ", 10)) + " # - 1. > ~~~ end"
	for _, width := range []int{10, 20, 30, 45, 60} {
		for _, line := range strings.Split(WrapLines(text, width, "", ""), "\n")[1:] {
			if w, _, _ := strings.Cut(line, " "); blockStart.MatchString(w) {
				t.Errorf("width %d: a line starts with %q: %q", width, w, line)
			}
		}
	}
}
