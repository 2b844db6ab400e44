package gen

import (
	"math"
	"math/rand/v2"

	"github.com/schedsim/schedsim/sim"
)

// newStream is the random stream of one component of a model: every
// component (arrivals, sizes, runtimes, …) draws from its own PCG stream
// of the seed, so adding a draw to one component leaves the others'
// sequences, and so their values, unchanged.
func newStream(seed uint64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// gamma draws from the gamma distribution of the given shape and scale
// (mean shape·scale) by Marsaglia and Tsang's method ("A simple method for
// generating gamma variables", ACM TOMS 26(3), 2000); a shape below 1 is
// boosted to shape+1 and scaled back by U^(1/shape).
func gamma(r *rand.Rand, shape, scale float64) float64 {
	boost := 1.0
	if shape < 1 {
		boost = math.Pow(1-r.Float64(), 1/shape) // 1−U ∈ (0, 1]: never 0^x
		shape++
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * scale * boost
		}
	}
}

// lognormal draws e^(μ + σ·Z), Z standard normal: median e^μ.
func lognormal(r *rand.Rand, mu, sigma float64) float64 {
	return math.Exp(mu + sigma*r.NormFloat64())
}

// exponential draws from the exponential distribution of the given mean.
func exponential(r *rand.Rand, mean float64) float64 {
	return r.ExpFloat64() * mean
}

// categorical draws an index with probability weights[i] / Σ weights, by
// walking the cumulative sums (the lists here are short).
type categorical struct {
	cum []float64
}

func newCategorical(weights []float64) categorical {
	cum := make([]float64, len(weights))
	total := 0.0
	for i, w := range weights {
		total += w
		cum[i] = total
	}
	for i := range cum {
		cum[i] /= total
	}
	return categorical{cum}
}

func (c categorical) draw(r *rand.Rand) int {
	u := r.Float64()
	for i, p := range c.cum {
		if u < p {
			return i
		}
	}
	return len(c.cum) - 1
}

// toTime converts seconds to the clock, rounded to the millisecond: traces
// carry no finer times, and shorter decimals keep files small.
func toTime(seconds float64) sim.Time {
	return sim.Time(math.Round(seconds*1000)) * (sim.Second / 1000)
}

// toAmount converts a float amount to thousandths (the resolution of
// sim.Amount), never below one thousandth.
func toAmount(x float64) sim.Amount {
	return max(sim.Amount(math.Round(x*float64(sim.Milli))), 1)
}
