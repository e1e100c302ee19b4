package format

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// Columns writes rows as left-aligned columns, two spaces apart, each line
// after indent, for a terminal: each cell goes through textsafe.CleanText.
func Columns(w io.Writer, indent string, rows [][]string) {
	var width []int
	clean := make([][]string, len(rows))
	for j, r := range rows {
		clean[j] = make([]string, len(r))
		for i, c := range r {
			clean[j][i] = textsafe.CleanText(c)
		}
	}
	rows = clean
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))+2))
			}
		}
		fmt.Fprintf(w, "%s%s\n", indent, strings.TrimRight(b.String(), " "))
	}
}
