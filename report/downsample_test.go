package report

import (
	"math"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// TestStepLineBuckets checks the bucket mean is time-weighted and the
// bucket max keeps a peak, on a series long enough to be bucketed.
func TestStepLineBuckets(t *testing.T) {
	n := maxPoints + 1 // one step per bucket pair: 0..maxPoints
	ts := make([]float64, n)
	vs := make([]float64, n)
	for i := range ts {
		ts[i] = float64(i)
		vs[i] = float64(i % 2) // 0 on [even, odd), 1 on [odd, even)
	}
	vs[10] = 50 // a one-second peak in bucket 5
	xs, ys := stepLine(ts, vs, aggMean)
	if len(xs) != maxPoints || xs[0] != 0 || xs[len(xs)-1] != float64(n-1) {
		t.Fatalf("got %d points from %v to %v", len(xs), xs[0], xs[len(xs)-1])
	}
	// Bucket k spans [2k, 2k+2): the mean of 0 and 1 is 0.5, of 50 and 1 is 25.5.
	if ys[0] != 0.5 || ys[10] != 25.5 {
		t.Errorf("means: bucket 0 = %v, bucket 5 = %v; want 0.5 and 25.5", ys[0], ys[10])
	}
	_, ys = stepLine(ts, vs, aggMax)
	if ys[0] != 1 || ys[10] != 50 {
		t.Errorf("maxima: bucket 0 = %v, bucket 5 = %v; want 1 and 50", ys[0], ys[10])
	}
}

// TestCDFPoints checks exact points for a short sample and type-7
// quantiles (numpy's default) for a long one.
func TestCDFPoints(t *testing.T) {
	qs, ps := cdfPoints([]float64{3, 1, 2})
	if len(qs) != 3 || qs[0] != 1 || qs[2] != 3 || math.Abs(ps[0]-1.0/3) > 1e-15 || ps[2] != 1 {
		t.Errorf("short: %v %v", qs, ps)
	}
	xs := make([]float64, 10*maxPoints)
	for i := range xs {
		xs[i] = float64(len(xs) - i)
	}
	qs, ps = cdfPoints(xs)
	if len(qs) != maxPoints || qs[0] != 1 || qs[len(qs)-1] != float64(len(xs)) || ps[len(ps)-1] != 1 {
		t.Errorf("long: %d points, %v … %v", len(qs), qs[0], qs[len(qs)-1])
	}
	// numpy.quantile(range(1, 5), 0.5) = 2.5.
	if q := metrics.Quantile([]float64{1, 2, 3, 4}, 0.5); q != 2.5 {
		t.Errorf("quantile7 = %v, want 2.5", q)
	}
}

// TestThinOutliers keeps the extremes and the bound.
func TestThinOutliers(t *testing.T) {
	vals := make([]float64, 1000)
	idx := make([]int, 1000)
	for i := range vals {
		vals[i] = float64((i * 7) % 1000)
		idx[i] = i
	}
	out := thinOutliers(idx, vals)
	if len(out) != maxOutliers || vals[out[0]] != 0 || vals[out[len(out)-1]] != 999 {
		t.Errorf("got %d, first %v, last %v", len(out), vals[out[0]], vals[out[len(out)-1]])
	}
}
