package stats

import (
	"math"
	"sort"

	mstats "github.com/aclements/go-moremath/stats"
)

// exactSignedRankLimit is the number of non-zero differences up to which
// SignedRankP computes the exact null distribution; above it, the normal
// approximation with a tie correction is used.
const exactSignedRankLimit = 50

// SignedRankP is the two-sided p-value of the Wilcoxon signed-rank test of
// the hypothesis that the differences d are symmetric around 0. Zero
// differences are dropped (Wilcoxon's convention); tied absolute values
// get mid-ranks. Up to exactSignedRankLimit non-zero differences the null
// distribution is enumerated exactly (with ties, over the actual doubled
// mid-ranks), so the test holds its level at small n. It returns 1 when no
// difference is non-zero.
func SignedRankP(d []float64) float64 {
	var nz []float64
	for _, x := range d {
		if x != 0 && !math.IsNaN(x) {
			nz = append(nz, x)
		}
	}
	n := len(nz)
	if n == 0 {
		return 1
	}
	ranks2 := doubledMidRanks(nz) // 2 × mid-rank: integers even with ties
	total, wplus := 0, 0
	for i, x := range nz {
		total += ranks2[i]
		if x > 0 {
			wplus += ranks2[i]
		}
	}
	if n > exactSignedRankLimit {
		return signedRankNormalP(ranks2, wplus, total)
	}
	// counts[s] = number of sign assignments whose positive doubled-rank
	// sum is s; each of the 2^n assignments is equally likely under H0.
	counts := make([]float64, total+1)
	counts[0] = 1
	for _, r := range ranks2 {
		for s := total; s >= r; s-- {
			counts[s] += counts[s-r]
		}
	}
	// Two-sided: probability of a sum at least as far from the centre.
	dev := math.Abs(float64(2*wplus - total))
	var p, all float64
	for s, c := range counts {
		all += c
		if math.Abs(float64(2*s-total)) >= dev-1e-9 {
			p += c
		}
	}
	return math.Min(1, p/all)
}

func signedRankNormalP(ranks2 []int, wplus, total int) float64 {
	var v float64
	for _, r := range ranks2 {
		v += float64(r) * float64(r)
	}
	sd := math.Sqrt(v) / 2 // variance of the sum of ±r/2 terms
	if sd == 0 {
		return 1
	}
	z := (math.Abs(float64(2*wplus-total)) / 2) / sd
	return math.Min(1, 2*(1-mstats.StdNormal.CDF(z)))
}

// doubledMidRanks ranks |x| from 1, giving tied values their mean rank,
// and returns twice the ranks (so that they are integers).
func doubledMidRanks(x []float64) []int {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return math.Abs(x[idx[a]]) < math.Abs(x[idx[b]]) })
	out := make([]int, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && math.Abs(x[idx[j+1]]) == math.Abs(x[idx[i]]) {
			j++
		}
		r2 := (i + 1) + (j + 1) // 2 × mean of ranks i+1..j+1
		for k := i; k <= j; k++ {
			out[idx[k]] = r2
		}
		i = j + 1
	}
	return out
}
