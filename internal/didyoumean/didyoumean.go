// Package didyoumean proposes the known name closest to a misspelt one, for
// errors such as `unknown key "db-pol" (did you mean "db-pool"?)`. It is a
// leaf package (no imports from this module), so the domain (lab), the
// experiment parser and the adapters (configs) all use the same rule.
package didyoumean

import "strings"

// Suggest returns the candidate closest to s, or "" when none is close
// enough to be a likely typo: at most max(2, len(s)/3) edits, where an edit
// inserts, deletes or substitutes a character or swaps two neighbours
// ("modle"), case is ignored and "_" equals "-" (PGRST_DB_POOL style).
func Suggest(s string, candidates []string) string {
	best, bestD := "", -1
	ls := normalize(s)
	for _, c := range candidates {
		d := Distance(ls, normalize(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len([]rune(s))/3) {
		return ""
	}
	return best
}

func normalize(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }

// Distance is the optimal string alignment distance between a and b (in
// runes): insertions, deletions, substitutions and transpositions of
// neighbours cost 1.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
