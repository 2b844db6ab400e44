package gen

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedsim/schedsim/sim"
)

// PoissonParams is the simple model: Poisson arrivals (exponential
// inter-arrival times), log-normal runtimes and sizes from a categorical
// distribution, all independent.
type PoissonParams struct {
	MeanInterarrival float64 // seconds between arrivals, on average (> 0)
	RuntimeMedian    float64 // seconds: e^μ of the log-normal runtime (> 0)
	RuntimeSigma     float64 // σ of ln(runtime in s) (≥ 0)
	// Sizes are the job sizes (tasks, one node each) and their weights;
	// a size's probability is its weight over the sum.
	Sizes []SizeWeight
}

// SizeWeight is one size of the categorical size distribution.
type SizeWeight struct {
	Tasks  int
	Weight float64
}

// poissonMaxRuntime bounds a log-normal draw (about 31 years), far beyond
// any default, so that a large σ cannot overflow the trace format.
const poissonMaxRuntime = 1e9

// PoissonDefaults returns the defaults, made for 128 nodes: sizes 1 (40%),
// 2, 4, 8 (15% each), 16 (10%) and 32 (5%), mean 5.7 nodes; runtime median
// 1800 s, σ 1.5 (mean 1800·e^(1.5²/2) = 5545 s); one arrival every 360 s.
// Offered load 5.7 · 5545 / (128 · 360) ≈ 0.69.
func PoissonDefaults() PoissonParams {
	return PoissonParams{
		MeanInterarrival: 360,
		RuntimeMedian:    1800,
		RuntimeSigma:     1.5,
		Sizes:            []SizeWeight{{1, 40}, {2, 15}, {4, 15}, {8, 15}, {16, 10}, {32, 5}},
	}
}

// Validate reports every problem of p at once.
func (p PoissonParams) Validate() error {
	var errs []error
	if !(p.MeanInterarrival > 0) || math.IsInf(p.MeanInterarrival, 0) {
		errs = append(errs, fmt.Errorf("mean inter-arrival: must be > 0 s, got %s", sim.FormatNumber(p.MeanInterarrival)))
	}
	if !(p.RuntimeMedian > 0) || p.RuntimeMedian > poissonMaxRuntime {
		errs = append(errs, fmt.Errorf("runtime median: must be in (0, 1e9] s, got %s", sim.FormatNumber(p.RuntimeMedian)))
	}
	if !(p.RuntimeSigma >= 0) || p.RuntimeSigma > 10 {
		errs = append(errs, fmt.Errorf("runtime sigma: must be in [0, 10], got %s", sim.FormatNumber(p.RuntimeSigma)))
	}
	total := 0.0
	for _, s := range p.Sizes {
		if s.Tasks < 1 {
			errs = append(errs, fmt.Errorf("sizes: a size must be ≥ 1 task, got %d", s.Tasks))
		}
		if !(s.Weight >= 0) || math.IsInf(s.Weight, 0) {
			errs = append(errs, fmt.Errorf("sizes: weight of %d must be ≥ 0, got %s", s.Tasks, sim.FormatNumber(s.Weight)))
		} else {
			total += s.Weight
		}
	}
	if !(total > 0) {
		errs = append(errs, errors.New("sizes: need at least one size of weight > 0"))
	}
	return errors.Join(errs...)
}

// Stream numbers of the Poisson model's components.
const (
	streamPoissonArrival = 1
	streamPoissonSize    = 2
	streamPoissonRuntime = 3
)

// NewPoisson makes a generator of the simple model. A job is Tasks = size
// tasks of {cpu: 1} on o.Nodes (default 128) nodes of one cpu, with no
// walltime; the first job arrives after one inter-arrival time.
func NewPoisson(p PoissonParams, o Options) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	largest := 1
	weights := make([]float64, len(p.Sizes))
	for i, s := range p.Sizes {
		largest = max(largest, s.Tasks)
		weights[i] = s.Weight
	}
	if err := checkOptions(&o, 128, 1); err != nil {
		return nil, err
	}
	if largest > o.Nodes {
		return nil, fmt.Errorf("sizes: %d tasks do not fit %d nodes", largest, o.Nodes)
	}
	arrival := newStream(o.Seed, streamPoissonArrival)
	size := newStream(o.Seed, streamPoissonSize)
	runtm := newStream(o.Seed, streamPoissonRuntime)
	sizes := newCategorical(weights)
	mu := math.Log(p.RuntimeMedian)
	request := []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}
	t := 0.0
	next := func() *sim.Job {
		t += exponential(arrival, p.MeanInterarrival)
		return &sim.Job{
			Submit:   toTime(t),
			Runtime:  toTime(min(lognormal(runtm, mu, p.RuntimeSigma), poissonMaxRuntime)),
			Walltime: sim.NoWalltime,
			Tasks:    p.Sizes[sizes.draw(size)].Tasks,
			Request:  request,
			Gang:     true,
		}
	}
	return nodesGenerator("poisson", o, request, next), nil
}
