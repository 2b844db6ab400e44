package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedsim/schedsim/metrics"
)

// Bootstrap settings: B resamples, the central 95 % percentile interval.
const (
	DefaultResamples = 10000
	Confidence       = 0.95
)

// stream returns the random stream of one (group, metric): its own PCG
// sequence, so a row's interval does not depend on the other rows.
func stream(seed uint64, group, metric string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(group))
	h.Write([]byte{0})
	h.Write([]byte(metric))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// bootstrapDiff returns the percentile interval of mean(cand) − mean(base)
// over b resamples. Paired samples (base[i] and cand[i] ran seed i) are
// drawn with one index for both; otherwise each side is drawn on its own.
func bootstrapDiff(base, cand []float64, paired bool, b int, rng *rand.Rand) (lo, hi float64) {
	diffs := make([]float64, b)
	for k := range diffs {
		if paired {
			var s float64
			for range base {
				i := rng.IntN(len(base))
				s += cand[i] - base[i]
			}
			diffs[k] = s / float64(len(base))
			continue
		}
		diffs[k] = resampledMean(cand, rng) - resampledMean(base, rng)
	}
	sort.Float64s(diffs)
	alpha := (1 - Confidence) / 2
	return metrics.Quantile(diffs, alpha), metrics.Quantile(diffs, 1-alpha)
}

// bootstrapDistance returns the percentile interval of
// |mean(cand) − 1| − |mean(base) − 1|, how much farther from 1 the
// candidate's mean ratio is, over b resamples drawn as bootstrapDiff does.
func bootstrapDistance(base, cand []float64, paired bool, b int, rng *rand.Rand) (lo, hi float64) {
	diffs := make([]float64, b)
	for k := range diffs {
		var mb, mc float64
		if paired {
			for range base {
				i := rng.IntN(len(base))
				mb += base[i]
				mc += cand[i]
			}
			mb, mc = mb/float64(len(base)), mc/float64(len(cand))
		} else {
			mc, mb = resampledMean(cand, rng), resampledMean(base, rng)
		}
		diffs[k] = math.Abs(mc-1) - math.Abs(mb-1)
	}
	sort.Float64s(diffs)
	alpha := (1 - Confidence) / 2
	return metrics.Quantile(diffs, alpha), metrics.Quantile(diffs, 1-alpha)
}

func resampledMean(xs []float64, rng *rand.Rand) float64 {
	var s float64
	for range xs {
		s += xs[rng.IntN(len(xs))]
	}
	return s / float64(len(xs))
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
