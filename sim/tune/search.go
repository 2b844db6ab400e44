package tune

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/schedsim/schedsim/policies/lattice"
)

// Evaluator replays every run of the experiment with a profile and returns
// each summary metric's mean over the runs (NaN when no run has a value)
// and the lattice scheduler's factor variation summed over them. It is
// called from several goroutines at once.
type Evaluator func(p lattice.Profile) (Evaluation, error)

// Evaluation is what the replays of one profile give.
type Evaluation struct {
	Metrics   map[string]float64
	Variation lattice.FactorVariation
}

// Point is one evaluated profile.
type Point struct {
	Name      string // the named profile's name; "" for a searched point
	Iteration int    // 0 for the named profiles, else the search iteration that first asked for it
	Profile   lattice.Profile
	Metrics   map[string]float64
	Objective float64 // the objective metric's mean, as reported
	Penalized float64 // what the search minimises (objective negated when maximised, plus penalties)
	Feasible  bool    // every constraint met
	Invalid   bool    // all weights zero: not a profile
}

// Step is the state of the search after an iteration.
type Step struct {
	Iteration   int
	Evaluations int     // distinct profiles evaluated so far, named ones included
	Best        float64 // best feasible objective so far; NaN if none
}

// Result is a finished search.
type Result struct {
	// Config is the search's: its Factors are those searched, the
	// requested ones less the inert ones left out.
	Config      *Config
	Requested   []lattice.Factor        // the factors the spec asked for
	Variation   lattice.FactorVariation // over the named profiles' runs
	Inert       []lattice.Factor        // every factor that varied in no pass of them
	Dropped     []lattice.Factor        // requested, inert, left out of the search
	Named       []*Point                // the named profiles, in the order given
	Searched    []*Point                // distinct searched profiles, by (iteration, weights)
	Convergence []Step
	Best        *Point // best feasible point, named ones included; nil if none
	Scale       float64
	Calls       int    // objective calls of the optimizer (repeats included)
	Status      string // why the optimizer stopped
}

// weightStep is the grid weights are rounded to, so the printed profile
// is the evaluated one.
const weightStep = 1e3

func roundWeight(x float64) float64 { return math.Round(x*weightStep) / weightStep }

// search is one run of the optimizer with its evaluation cache.
type search struct {
	cfg   *Config
	eval  Evaluator
	base  lattice.Weights // the start profile: untuned factors keep its weights
	scale float64

	mu        sync.Mutex
	iteration int
	cache     map[lattice.Weights]*entry
	calls     int
	err       error
}

type entry struct {
	done  chan struct{}
	point *Point
}

// Run evaluates the named profiles, then searches from the start profile
// (the named profile with the lowest penalized objective when start is
// best). workers bounds the optimizer's concurrent evaluations.
func Run(cfg *Config, named []lattice.Profile, eval Evaluator, workers int) (*Result, error) {
	if len(named) == 0 {
		return nil, errors.New("tune: no named profile to compare with and start from")
	}
	// The named profiles, concurrently; results land by index.
	namedPts := make([]*Point, len(named))
	variations := make([]lattice.FactorVariation, len(named))
	errs := make([]error, len(named))
	var wg sync.WaitGroup
	for i, p := range named {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev, err := eval(p)
			errs[i] = err
			namedPts[i] = &Point{Name: p.Name, Profile: p, Metrics: ev.Metrics}
			variations[i] = ev.Variation
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	res := measured(cfg, variations)
	res.Named = namedPts
	cfg = res.Config
	res.Scale = 0
	for _, pt := range res.Named {
		res.Scale = math.Max(res.Scale, math.Abs(pt.Metrics[cfg.Objective]))
	}
	if res.Scale == 0 || math.IsNaN(res.Scale) {
		res.Scale = 1
	}
	for _, pt := range res.Named {
		score(cfg, pt, res.Scale)
	}
	start := res.Named[0]
	for _, pt := range res.Named {
		if (cfg.Start == "best" && pt.Penalized < start.Penalized) || pt.Name == cfg.Start {
			start = pt
		}
	}
	if cfg.Start != "best" && start.Name != cfg.Start {
		return nil, fmt.Errorf("tune.start: %q is not among the profiles evaluated", cfg.Start)
	}

	s := &search{cfg: cfg, eval: eval, base: start.Profile.Weights, scale: res.Scale, cache: map[lattice.Weights]*entry{}}
	for _, pt := range res.Named {
		if pt.Profile.RequireConformance == cfg.Required {
			s.cache[pt.Profile.Weights] = &entry{done: closed(), point: pt}
		}
	}
	if len(cfg.Factors) == 0 {
		// Every weight asked for is inert: every profile gives the
		// schedules the named ones gave.
		res.Status = "nothing to search: every factor asked for is inert"
		res.Best = best(res.Named)
		res.Convergence = convergence(res)
		return res, nil
	}
	x0 := make([]float64, len(cfg.Factors))
	for i, f := range cfg.Factors {
		x0[i] = math.Min(math.Max(s.base[f], cfg.Lo[f]), cfg.Hi[f])
	}
	var method optimize.Method
	concurrent := 1
	switch cfg.Method {
	case NelderMead:
		method = &optimize.NelderMead{SimplexSize: cfg.Step}
	default:
		// CmaEsChol samples from N(mean, InitCholesky) (identity by
		// default) whatever InitStepSize says, so the step goes into the
		// covariance: step² · I.
		var chol mat.Cholesky
		v := make([]float64, len(x0))
		for i := range v {
			v[i] = cfg.Step * cfg.Step
		}
		chol.Factorize(mat.NewDiagDense(len(v), v))
		method = &optimize.CmaEsChol{InitStepSize: cfg.Step, InitCholesky: &chol, Population: cfg.Population,
			Src: rand.NewPCG(cfg.Seed, 0x7ece)}
		concurrent = max(workers, 1)
	}
	settings := &optimize.Settings{
		MajorIterations: cfg.Iterations,
		Concurrent:      concurrent,
		Recorder:        s,
		Converger:       &optimize.FunctionConverge{Absolute: 1e-9, Iterations: cfg.Iterations},
	}
	problem := optimize.Problem{
		Func: s.objective,
		Status: func() (optimize.Status, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.err != nil {
				return optimize.Failure, s.err
			}
			return optimize.NotTerminated, nil
		},
	}
	out, err := optimize.Minimize(problem, x0, settings, method)
	if s.err != nil {
		return nil, s.err
	}
	if err != nil {
		return nil, fmt.Errorf("tune: optimizer: %w", err)
	}
	res.Status = out.Status.String()
	res.Calls = s.calls
	for _, e := range s.cache {
		if e.point.Name == "" {
			res.Searched = append(res.Searched, e.point)
		}
	}
	slices.SortFunc(res.Searched, func(a, b *Point) int {
		if a.Iteration != b.Iteration {
			return a.Iteration - b.Iteration
		}
		return slices.Compare(a.Profile.Weights[:], b.Profile.Weights[:])
	})
	res.Best = best(append(append([]*Point(nil), res.Named...), res.Searched...))
	res.Convergence = convergence(res)
	return res, nil
}

// measured sums the named profiles' factor variation and leaves the
// inert factors out of the search unless the spec keeps them: the search
// runs on a copy of cfg.
func measured(cfg *Config, variations []lattice.FactorVariation) *Result {
	res := &Result{Requested: cfg.Factors}
	for _, v := range variations {
		res.Variation.Add(v)
	}
	res.Inert = res.Variation.Inert()
	search := *cfg
	search.Factors = nil
	for _, f := range cfg.Factors {
		if !cfg.KeepInert && slices.Contains(res.Inert, f) {
			res.Dropped = append(res.Dropped, f)
			continue
		}
		search.Factors = append(search.Factors, f)
	}
	res.Config = &search
	return res
}

func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// Init and Record make the search an optimize.Recorder: each major
// iteration ends one iteration of evaluations. The optimizer asks for the
// next iteration's points only after Record returns.
func (s *search) Init() error { return nil }

func (s *search) Record(_ *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op == optimize.MajorIteration {
		s.mu.Lock()
		s.iteration++
		s.mu.Unlock()
	}
	return nil
}

// weights maps a point of the search space to the profile's weights (the
// tuned factors clamped and rounded) and the distance outside the bounds.
func (s *search) weights(x []float64) (lattice.Weights, float64) {
	w := s.base
	var out float64
	for i, f := range s.cfg.Factors {
		c := math.Min(math.Max(x[i], s.cfg.Lo[f]), s.cfg.Hi[f])
		out += math.Abs(x[i] - c)
		w[f] = roundWeight(c)
	}
	return w, out
}

// objective is the function the optimizer minimises.
func (s *search) objective(x []float64) float64 {
	w, out := s.weights(x)
	s.mu.Lock()
	s.calls++
	e, ok := s.cache[w]
	if !ok {
		e = &entry{done: make(chan struct{})}
		s.cache[w] = e
		// Every evaluation of an iteration starts before Record ends it.
		iteration := s.iteration + 1
		s.mu.Unlock()
		e.point = s.evaluate(w, iteration)
		close(e.done)
	} else {
		s.mu.Unlock()
		<-e.done
	}
	f := e.point.Penalized
	if math.IsInf(f, 1) {
		return f
	}
	return f + out*(math.Abs(f)+1)
}

func (s *search) evaluate(w lattice.Weights, iteration int) *Point {
	pt := &Point{Iteration: iteration, Profile: lattice.Profile{Name: "tuned", Weights: w, RequireConformance: s.cfg.Required}}
	if w == (lattice.Weights{}) {
		pt.Invalid, pt.Penalized, pt.Objective = true, math.Inf(1), math.NaN()
		return pt
	}
	ev, err := s.eval(pt.Profile)
	m := ev.Metrics
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
		pt.Invalid, pt.Penalized, pt.Objective = true, math.Inf(1), math.NaN()
		return pt
	}
	pt.Metrics = m
	score(s.cfg, pt, s.scale)
	return pt
}

// score sets a point's objective, penalized value and feasibility.
func score(cfg *Config, pt *Point, scale float64) {
	pt.Objective = pt.Metrics[cfg.Objective]
	if _, ok := pt.Metrics[cfg.Objective]; !ok {
		pt.Objective = math.NaN()
	}
	f := pt.Objective
	if cfg.Maximize {
		f = -f
	}
	var v float64
	for _, c := range cfg.Constraints {
		value, ok := pt.Metrics[c.Metric]
		if !ok {
			value = math.NaN()
		}
		v += c.violation(value)
	}
	pt.Feasible = v == 0 && !math.IsNaN(f)
	if math.IsNaN(f) {
		pt.Penalized = math.Inf(1)
		return
	}
	pt.Penalized = f + cfg.Penalty*scale*v
}

// best is the best feasible point of pts (the first of equals), or nil.
// A feasible point's penalized value is its objective, negated when
// maximised, so lower is better either way.
func best(pts []*Point) *Point {
	var b *Point
	for _, p := range pts {
		if p.Feasible && (b == nil || p.Penalized < b.Penalized) {
			b = p
		}
	}
	return b
}

// convergence is the best feasible objective after each iteration.
func convergence(r *Result) []Step {
	last := 0
	for _, p := range r.Searched {
		last = max(last, p.Iteration)
	}
	var steps []Step
	all := append([]*Point(nil), r.Named...)
	i := 0
	for it := 0; it <= last; it++ {
		for i < len(r.Searched) && r.Searched[i].Iteration == it {
			all = append(all, r.Searched[i])
			i++
		}
		st := Step{Iteration: it, Evaluations: len(all), Best: math.NaN()}
		if b := best(all); b != nil {
			st.Best = b.Objective
		}
		steps = append(steps, st)
	}
	return steps
}
