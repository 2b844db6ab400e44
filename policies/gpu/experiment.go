package gpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"golang.org/x/sync/errgroup"
)

// Experiment is the paper's experiment (Weng et al., §6): pods arrive one
// by one and never leave; the pod list is shuffled by seed and inflated by
// sampling it with replacement until the GPU requested reaches Inflation
// times the cluster's GPU capacity; after each pod the GPU allocation ratio
// and the fragmentation are recorded against the GPU requested so far
// ("arrived"), sampled every StepPct percent of capacity.
type Experiment struct {
	Cluster   *Cluster // the empty cluster, with the task table to measure against
	Pods      []Demand // the pod list, in file order
	Inflation float64  // requested GPU / capacity to reach, e.g. 1.3
	StepPct   float64  // sampling step of arrived GPU, in percent of capacity
	// RandomTies breaks exact score ties at random, as the Kubernetes
	// scheduler of the paper's simulator does; otherwise ties go to the
	// lowest node index.
	RandomTies bool
	Keep       bool // keep every pod's demand and placement in the Result
	Check      bool // verify the cluster's invariants after the run
}

// Random streams of a run, derived from its seed.
const (
	streamShuffle = 1
	streamInflate = 2
	streamPolicy  = 3
	streamTies    = 4
)

// Point is the state when arrived GPU first reaches a step: the state after
// every pod whose arrival keeps the requested GPU at or below the step.
type Point struct {
	ArrivedPct float64 // the step, percent of GPU capacity
	Pods       int     // pods arrived
	Placed     int     // pods placed
	ArrivedGPU int64   // milli-GPU requested by arrived pods
	AllocGPU   int64   // milli-GPU allocated
	FragGPU    float64 // cluster fragmentation, GPUs
	FragRatio  float64 // fragmentation / free GPU, in [0, 1]
}

// Placement is where one pod went; Node is -1 when it fitted nowhere.
type Placement struct {
	Node int
	GPUs GPUSet
}

// Result is one run.
type Result struct {
	Policy     string
	Seed       uint64
	Capacity   int64 // cluster milli-GPU
	Points     []Point
	Pods       []Demand    // arrival order (Keep only)
	Placements []Placement // per pod (Keep only)
}

// At returns the point of step pct (a multiple of StepPct).
func (r *Result) At(pct float64) (Point, bool) {
	for _, p := range r.Points {
		if math.Abs(p.ArrivedPct-pct) < 1e-9 {
			return p, true
		}
	}
	return Point{}, false
}

// Alloc is a point's GPU allocation ratio, allocated over capacity.
func (r *Result) Alloc(p Point) float64 { return float64(p.AllocGPU) / float64(r.Capacity) }

func (e *Experiment) validate() error {
	switch {
	case e.Cluster == nil || e.Cluster.GPUCapacity() == 0:
		return errors.New("experiment: a cluster with GPUs is needed")
	case len(e.Pods) == 0:
		return errors.New("experiment: no pods")
	case !(e.Inflation > 0 && e.Inflation <= 100):
		return fmt.Errorf("experiment: inflation %g: need 0 < x ≤ 100", e.Inflation)
	case !(e.StepPct > 0 && e.StepPct <= 100*e.Inflation):
		return fmt.Errorf("experiment: step %g%%: need 0 < step ≤ %g", e.StepPct, 100*e.Inflation)
	}
	return nil
}

// Arrivals is the pod sequence of a seed: the list shuffled, then pods
// drawn uniformly with replacement and appended while the total GPU
// requested stays within Inflation × capacity (the first draw that would
// pass it ends the list). A list that already asks for more loses pods
// drawn at random until it fits.
func (e *Experiment) Arrivals(seed uint64) []Demand {
	pods := append(make([]Demand, 0, len(e.Pods)*2), e.Pods...)
	rand.New(rand.NewPCG(seed, streamShuffle)).Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
	target := int64(math.Floor(e.Inflation * float64(e.Cluster.GPUCapacity())))
	var total int64
	for _, d := range pods {
		total += d.TotalGPUMilli()
	}
	r := rand.New(rand.NewPCG(seed, streamInflate))
	for total > target && len(pods) > 0 {
		i := r.IntN(len(pods))
		total -= pods[i].TotalGPUMilli()
		pods = append(pods[:i], pods[i+1:]...)
	}
	for {
		d := e.Pods[r.IntN(len(e.Pods))]
		if total+d.TotalGPUMilli() > target {
			return pods
		}
		total += d.TotalGPUMilli()
		pods = append(pods, d)
	}
}

// Run runs one policy with one seed.
func (e *Experiment) Run(policy string, seed uint64) (*Result, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	c := e.Cluster.Clone()
	p, err := New(policy, Env{Types: c.TaskTable(), Rand: rand.New(rand.NewPCG(seed, streamPolicy))})
	if err != nil {
		return nil, err
	}
	var tie *rand.Rand
	if e.RandomTies {
		tie = rand.New(rand.NewPCG(seed, streamTies))
	}
	pods := e.Arrivals(seed)
	res := &Result{Policy: policy, Seed: seed, Capacity: c.GPUCapacity()}
	if e.Keep {
		res.Pods = pods
		res.Placements = make([]Placement, len(pods))
	}
	steps := int(math.Floor(100*e.Inflation/e.StepPct + 1e-9))
	threshold := func(k int) float64 { return float64(k) * e.StepPct / 100 * float64(res.Capacity) }
	var cur Point
	record := func(k int) {
		cur.ArrivedPct = float64(k) * e.StepPct
		cur.AllocGPU = c.GPUAllocated()
		cur.FragGPU = c.Fragmentation()
		cur.FragRatio = c.FragmentationRatio()
		res.Points = append(res.Points, cur)
	}
	k := 0
	for i, d := range pods {
		for k <= steps && float64(cur.ArrivedGPU+d.TotalGPUMilli()) > threshold(k) {
			record(k)
			k++
		}
		cur.Pods++
		cur.ArrivedGPU += d.TotalGPUMilli()
		node, g, ok, err := c.Schedule(p, d, tie)
		if err != nil {
			return nil, err
		}
		if ok {
			cur.Placed++
		}
		if e.Keep {
			res.Placements[i] = Placement{node, g}
		}
	}
	for ; k <= steps; k++ {
		record(k)
	}
	if e.Check {
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("%s seed %d: %w", policy, seed, err)
		}
	}
	return res, nil
}

// RunAll runs every policy with every seed on workers goroutines (≤ 0:
// one) and returns the results in (policy, seed) order, whatever the
// number of workers: runs share nothing but read-only inputs.
func (e *Experiment) RunAll(policies []string, seeds []uint64, workers int) ([]*Result, error) {
	type job struct {
		i      int
		policy string
		seed   uint64
	}
	var jobs []job
	for _, p := range policies {
		for _, s := range seeds {
			jobs = append(jobs, job{len(jobs), p, s})
		}
	}
	out := make([]*Result, len(jobs))
	// Every run goes on when one fails, and all errors are reported.
	errs := make([]error, len(jobs))
	var g errgroup.Group
	g.SetLimit(max(1, workers))
	for _, j := range jobs {
		g.Go(func() error {
			out[j.i], errs[j.i] = e.Run(j.policy, j.seed)
			return nil
		})
	}
	g.Wait()
	return out, errors.Join(errs...)
}
