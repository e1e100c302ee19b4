package trial

import (
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// requestIDs are the ids a request's path asks for: each query filter on
// an id column (a name ending in "id") equal to one {rand LO HI} field, a
// range drawn per request, or to a whole number, the one fixed id.
func requestIDs(path string) []lab.IDRange {
	_, query, ok := strings.Cut(path, "?")
	if !ok {
		return nil
	}
	var out []lab.IDRange
	for param := range strings.SplitSeq(query, "&") {
		col, val, _ := strings.Cut(param, "=")
		val, isEq := strings.CutPrefix(val, "eq.")
		if !isEq || !strings.HasSuffix(strings.ToLower(col), "id") {
			continue
		}
		parts, err := loadgen.Parts(val)
		if err != nil || len(parts) != 1 {
			continue
		}
		switch p := parts[0]; p.Kind {
		case 'r':
			out = append(out, lab.IDRange{Column: col, Lo: p.Lo, Hi: p.Hi})
		case 0:
			if n, err := strconv.ParseInt(p.Text, 10, 64); err == nil {
				out = append(out, lab.IDRange{Column: col, Lo: n, Hi: n})
			}
		}
	}
	return out
}
