package metrics

import (
	"math"
	"testing"
)

// Expected values are numpy.Quantile(xs, p) with the default method,
// worked by hand: h = (n−1)·p, q = x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
func TestQuantile(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		p    float64
		want float64
	}{
		{[]float64{7}, 0.5, 7},                         // one value: every quantile is it
		{[]float64{7}, 0.95, 7},                        //
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},              // h = 1.5 → 2 + 0.5·1
		{[]float64{1, 2, 3, 4, 5}, 0.5, 3},             // h = 2 → x[2]
		{[]float64{0, 10, 20, 30}, 0.95, 28.5},         // h = 2.85 → 20 + 0.85·10
		{[]float64{0, 10, 20, 30}, 0.25, 7.5},          // h = 0.75 → 0 + 0.75·10
		{[]float64{0, 0, 10, 35, 35, 40}, 0.95, 38.75}, // h = 4.75 → 35 + 0.75·5
		{[]float64{0, 0, 10, 35, 35, 40}, 0.5, 22.5},   // h = 2.5 → 10 + 0.5·25
		{[]float64{1, 2, 3}, 0, 1},                     // p = 0: the minimum
		{[]float64{1, 2, 3}, 1, 3},                     // p = 1: the maximum
		{[]float64{-5, 5}, 0.1, -4},                    // h = 0.1 → −5 + 0.1·10
	} {
		if got := Quantile(c.xs, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", c.xs, c.p, got, c.want)
		}
	}
	// Bit for bit what numpy 1.24 prints for np.percentile([0, 10, 20, 30], 95):
	// (n−1)·0.95 rounds to 2.8499999999999996 and numpy's lerp computes
	// 30 − 10·(1 − 0.8499999999999996).
	if got := Quantile([]float64{0, 10, 20, 30}, 0.95); got != 28.499999999999996 {
		t.Errorf("quantile = %v, numpy gives 28.499999999999996", got)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("quantile of nothing is not NaN")
	}
}
