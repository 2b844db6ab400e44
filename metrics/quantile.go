package metrics

import "math"

// Quantile returns the p-quantile (0 ≤ p ≤ 1) of xs with numpy's default
// method ("linear", Hyndman & Fan type 7), so numbers match what analysts
// compute from jobs.parquet with numpy or pandas:
//
//	h = (n−1)·p,  lo = ⌊h⌋,  hi = min(lo+1, n−1),  g = h − lo
//	q = x[lo] + g·(x[hi] − x[lo])   computed as numpy's _lerp does:
//	    x[hi] − (1−g)·(x[hi] − x[lo]) when g ≥ 0.5, for the same rounding.
//
// xs must be sorted ascending. It returns NaN for an empty slice.
func Quantile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	switch {
	case lo < 0:
		return xs[0]
	case lo >= n-1:
		return xs[n-1]
	}
	a, b := xs[lo], xs[lo+1]
	g := h - float64(lo)
	d := b - a
	if g >= 0.5 {
		return b - d*(1-g)
	}
	return a + d*g
}
