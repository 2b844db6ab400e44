package report

import (
	"math"
	"sort"

	"github.com/schedsim/schedsim/metrics"
)

// maxPoints bounds the vertices of one line, so an SVG stays a few hundred
// kilobytes even for a multi-year trace with millions of events.
const maxPoints = 2000

// maxOutliers bounds the outlier glyphs of one box plot, for the same
// reason: a run of a million jobs can have tens of thousands.
const maxOutliers = 200

// aggregate says how a bucket summarizes the step function over it.
type aggregate int

const (
	aggMean aggregate = iota // time-weighted mean: utilization, power
	aggMax                   // maximum: queue length, whose peaks matter
)

// stepLine turns a step function (v[i] holds on [t[i], t[i+1])) into a
// polyline of at most maxPoints vertices. A short series is drawn exactly;
// a long one is cut into maxPoints/2 equal time buckets, each drawn as a
// flat segment at its mean or max. Zero-length steps (several changes at
// one instant) are ignored by the buckets, as they last no time.
func stepLine(t, v []float64, agg aggregate) (xs, ys []float64) {
	n := len(t)
	if n == 0 {
		return nil, nil
	}
	if 2*n <= maxPoints {
		for i := 0; i < n; i++ {
			xs = append(xs, t[i])
			ys = append(ys, v[i])
			if i+1 < n {
				xs = append(xs, t[i+1])
				ys = append(ys, v[i])
			}
		}
		return xs, ys
	}
	nb := maxPoints / 2
	t0, t1 := t[0], t[n-1]
	width := (t1 - t0) / float64(nb)
	if width <= 0 {
		return []float64{t0}, []float64{v[n-1]}
	}
	acc := make([]float64, nb)
	seen := make([]bool, nb)
	bucket := func(x float64) int {
		b := int((x - t0) / width)
		return min(max(b, 0), nb-1)
	}
	for i := 0; i+1 < n; i++ {
		a, b := t[i], t[i+1]
		if b <= a {
			continue
		}
		for k := bucket(a); k <= bucket(b) && k < nb; k++ {
			lo := math.Max(a, t0+float64(k)*width)
			hi := math.Min(b, t0+float64(k+1)*width)
			if hi <= lo {
				continue
			}
			switch agg {
			case aggMean:
				acc[k] += v[i] * (hi - lo) / width
			case aggMax:
				if !seen[k] || v[i] > acc[k] {
					acc[k] = v[i]
				}
			}
			seen[k] = true
		}
	}
	for k := 0; k < nb; k++ {
		xs = append(xs, t0+float64(k)*width, t0+float64(k+1)*width)
		ys = append(ys, acc[k], acc[k])
	}
	return xs, ys
}

// cdfPoints returns the empirical CDF of xs (sorted in place) with at most
// maxPoints vertices: every point when there are few, else quantiles at
// evenly spaced probabilities, computed like numpy's default (type 7), so
// the curve agrees with the summary's median and p95.
func cdfPoints(xs []float64) (qs, ps []float64) {
	sort.Float64s(xs)
	n := len(xs)
	if n == 0 {
		return nil, nil
	}
	if n <= maxPoints {
		for i, x := range xs {
			qs = append(qs, x)
			ps = append(ps, float64(i+1)/float64(n))
		}
		return qs, ps
	}
	for k := 0; k < maxPoints; k++ {
		p := float64(k) / float64(maxPoints-1)
		qs = append(qs, metrics.Quantile(xs, p))
		ps = append(ps, p)
	}
	return qs, ps
}

// thinOutliers keeps at most maxOutliers of the outlier indices, evenly
// spaced by value rank and always the extremes, so the spread of the tail
// still shows.
func thinOutliers(idx []int, vals []float64) []int {
	if len(idx) <= maxOutliers {
		return idx
	}
	s := append([]int(nil), idx...)
	sort.SliceStable(s, func(a, b int) bool { return vals[s[a]] < vals[s[b]] })
	out := make([]int, 0, maxOutliers)
	for k := 0; k < maxOutliers; k++ {
		out = append(out, s[k*(len(s)-1)/(maxOutliers-1)])
	}
	return out
}
