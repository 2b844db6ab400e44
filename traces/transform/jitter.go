package transform

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedsim/schedsim/sim"
)

// Jitter is seeded noise on the job stream, so that the seeds of a sweep
// give distinct replicas of one workload (and a comparison's t-interval
// has spread to measure). Each job draws from two streams of Seed, one
// for submits and one for runtimes, in stream order: a replica depends on
// the seed and the settings only, and changing one kind of noise leaves
// the other's draws as they were.
type Jitter struct {
	// SubmitSpread > 0 moves each job's submit by an offset drawn
	// uniformly from [−SubmitSpread, +SubmitSpread], then to no earlier
	// than the job before it (submit order is kept: jobs submitted
	// together stay in their order, now a few instants apart) nor than the
	// first job's submit.
	SubmitSpread sim.Time
	// RuntimeSigma > 0 multiplies each runtime by exp(σZ − σ²/2), Z
	// standard normal: a log-normal factor with mean 1 (the offered work
	// is kept on average), median exp(−σ²/2) and, for small σ, a
	// coefficient of variation close to σ. A job whose runtime fits its
	// walltime keeps fitting it: the noisy runtime is capped there, so
	// noise does not turn completed jobs into killed ones.
	RuntimeSigma float64
	// Seed seeds the draws (the run's seed).
	Seed uint64
}

// Active reports whether j draws anything.
func (j Jitter) Active() bool { return j.SubmitSpread > 0 || j.RuntimeSigma > 0 }

func (j Jitter) check() error {
	if j.SubmitSpread < 0 {
		return fmt.Errorf("submit jitter: want seconds ≥ 0, got %s", j.SubmitSpread)
	}
	if !(j.RuntimeSigma >= 0) || math.IsInf(j.RuntimeSigma, 0) {
		return fmt.Errorf("runtime jitter: want a σ ≥ 0, got %s", sim.FormatNumber(j.RuntimeSigma))
	}
	return nil
}

// The streams of a seed; any two distinct constants.
const (
	submitStream  = 0x5ab3_17e1_0c4d_2f61
	runtimeStream = 0x7a9d_e0b2_4c61_3385
)

// jitterDraws is a Jitter's state along one stream of jobs.
type jitterDraws struct {
	Jitter
	submits, runtimes *rand.Rand
}

func newJitterDraws(j Jitter) *jitterDraws {
	return &jitterDraws{Jitter: j,
		submits:  rand.New(rand.NewPCG(j.Seed, submitStream)),
		runtimes: rand.New(rand.NewPCG(j.Seed, runtimeStream)),
	}
}

// submit moves t by a uniform offset, to no earlier than floor.
func (d *jitterDraws) submit(t, floor sim.Time) sim.Time {
	if d.SubmitSpread <= 0 {
		return t
	}
	offset := (2*d.submits.Float64() - 1) * float64(d.SubmitSpread)
	return max(t+sim.Time(math.Round(offset)), floor)
}

// runtime multiplies rt by a mean-1 log-normal factor, capped at the
// walltime wt when rt fits it.
func (d *jitterDraws) runtime(rt, wt sim.Time) sim.Time {
	if d.RuntimeSigma <= 0 {
		return rt
	}
	s := d.RuntimeSigma
	noisy := scale(rt, math.Exp(s*d.runtimes.NormFloat64()-s*s/2))
	if wt != sim.NoWalltime && rt <= wt {
		noisy = min(noisy, wt)
	}
	return noisy
}
