package gpu

import (
	"errors"
	"math/rand/v2"
)

// randomPolicy scores each fitting node with a fresh uniform number, so the
// best is a uniformly random fitting node; a share goes to a uniformly
// random fitting GPU, whole GPUs to the lowest-index free ones.
type randomPolicy struct{ rng *rand.Rand }

func newRandom(env Env) (Policy, error) {
	if env.Rand == nil {
		return nil, errors.New("random policy: no random stream")
	}
	return randomPolicy{env.Rand}, nil
}

func (randomPolicy) Name() string { return "random" }

// Score is uniform in [0, 1). It draws from the stream, so calls must come
// in a fixed order (node index order) for runs to repeat.
func (p randomPolicy) Score(n *Node, d Demand) (float64, GPUSet, bool) {
	if !n.Fits(d) {
		return 0, 0, false
	}
	s := p.rng.Float64()
	if !d.Share() {
		return s, n.bestFitGPUs(d), true
	}
	pick, seen := -1, 0
	for i, f := range n.free[:n.n] {
		if f >= d.GPUMilli {
			if seen++; p.rng.IntN(seen) == 0 {
				pick = i
			}
		}
	}
	return s, 1 << uint(pick), true
}
