package words

import (
	"slices"
	"strings"
)

// Nearest is the name of names closest to k by edit distance when close
// enough to be a typo ("did you mean"), else "". Ties go to the name
// first in sorted order, so the suggestion does not depend on the
// caller's order.
func Nearest(k string, names []string) string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	best, bestD := "", max(3, len(k)/3+1)
	for _, n := range sorted {
		if d := editDistance(k, n); d < bestD || (strings.Contains(n, k) && len(k) >= 3 && best == "") {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is Levenshtein's distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
