package placement

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Strategy is a registered placement strategy: one named configuration
// of the pipeline.
type Strategy struct {
	Name string
	Doc  string
	// NewArgs returns the zero value of its typed arguments (the keys of
	// the placement: block beside strategy, limit and scorers); nil for
	// a strategy that takes none.
	NewArgs func() Args
	// Build returns its pipeline for the cluster; s.Args are its
	// arguments (nil when none were given), already validated.
	Build func(c *sim.Cluster, s *Spec) (*Pipeline, error)
}

// ScorerDef is a registered scorer of Spec.Scorers.
type ScorerDef struct {
	Name string
	Doc  string
	// NewArgs returns the zero value of its typed arguments (the keys of
	// a scorers item beside name and weight); nil: none.
	NewArgs func() Args
	// Build returns the scorer for the cluster; args are its arguments
	// (nil when none were given), already validated.
	Build func(c *sim.Cluster, args Args) (Scorer, error)
}

// strategies is the registry of strategies by name. Adding one is an
// entry here (or RegisterStrategy), its constructor, its test and a
// scenario.
var strategies = map[string]Strategy{}

func init() {
	for _, s := range []Strategy{
		{"first-fit", "the lowest-numbered node with room (the default)", nil, firstFitStrategy},
		{"prioritized", "pylighthouse's PrioritizedDistributor: first fit in the node list's order", nil, firstFitStrategy},
		{"round-robin", "pylighthouse's RoundRobinDistributor: the first node with room after the one used last", nil, roundRobinStrategy},
		{"binpack", "pylighthouse's BinPackDistributor: the node with the least room by resources (the rubric), ties by node name", newResourceArgs, binpackStrategy},
		{"least-allocated", "k8s LeastAllocated (spread): the node with the largest free share after placement", newResourceArgs, allocationStrategy(false)},
		{"spread", "alias of least-allocated", newResourceArgs, allocationStrategy(false)},
		{"most-allocated", "k8s MostAllocated: the node with the largest used share after placement (packing)", newResourceArgs, allocationStrategy(true)},
		{"balanced-allocation", "k8s BalancedAllocation: the node whose resources fill most evenly", newResourceArgs, balancedStrategy},
		{"fewest-instances", "LXD's default: the node running the fewest tasks", nil, scorerStrategy(fewestInstances{})},
		{"random", "a feasible node chosen uniformly, seeded by --seed", nil, randomStrategy},
		{"dot-product", "Tetris: the node whose free resources best align with the task's demand", nil, scorerStrategy(dotProduct{})},
		{"fenzo", "Fenzo: bin-packing fitness (calculator cpu, mem, cpu+mem or none) averaged with the task's soft constraints", newCalculatorArgs, fenzoStrategy},
		{"fgd", "FGD (Weng et al., ATC'23): the node and GPU whose fragmentation against the workload's task types grows least (GPU devices)", nil, gpuStrategy("fgd")},
		{"best-fit", "FGD paper's best-fit: the node left with the least free CPU and GPU (GPU devices)", nil, gpuStrategy("best-fit")},
		{"gpu-packing", "FGD paper's GPU packing: partly used GPUs, then used nodes, then idle nodes (GPU devices)", nil, gpuStrategy("gpu-packing")},
		{"gpu-clustering", "FGD paper's GPU clustering: nodes running tasks of the same GPU kind first (GPU devices)", nil, gpuStrategy("gpu-clustering")},
		{"gpu-dot-product", "FGD paper's Tetris dot product of free (CPU, GPU) and demand, fullest first (GPU devices)", nil, gpuStrategy("gpu-dot-product")},
		{"gpu-random", "FGD paper's random: a uniformly random node where the task fits its GPUs, seeded by --seed", nil, gpuStrategy("gpu-random")},
	} {
		strategies[s.Name] = s
	}
	for _, s := range []ScorerDef{
		{"least-allocated", "free share after placement, weighted mean over resources", newResourceArgs, func(c *sim.Cluster, a Args) (Scorer, error) {
			rs, err := defaultResources(c, resources(a))
			return &allocation{name: "least-allocated", resources: rs}, err
		}},
		{"most-allocated", "used share after placement, weighted mean over resources", newResourceArgs, func(c *sim.Cluster, a Args) (Scorer, error) {
			rs, err := defaultResources(c, resources(a))
			return &allocation{name: "most-allocated", resources: rs, most: true}, err
		}},
		{"balanced-allocation", "1 − standard deviation of the used shares", newResourceArgs, func(c *sim.Cluster, a Args) (Scorer, error) {
			rs, err := defaultResources(c, resources(a))
			return &balanced{resources: rs}, err
		}},
		{"spread", "1 − share of the job's tasks already on this node's attribute value", newAttributeArgs, func(_ *sim.Cluster, a Args) (Scorer, error) {
			if attribute(a) == "" {
				return nil, errors.New("spread needs an attribute")
			}
			return &spreadScorer{attribute: attribute(a)}, nil
		}},
		{"taint-preference", "1 / (1 + PreferNoSchedule taints not tolerated)", nil, func(*sim.Cluster, Args) (Scorer, error) { return taintPreference{}, nil }},
		{"fewest-instances", "1 / (1 + tasks on the node)", nil, func(*sim.Cluster, Args) (Scorer, error) { return fewestInstances{}, nil }},
		{"dot-product", "alignment of demand and free resources", nil, func(*sim.Cluster, Args) (Scorer, error) { return dotProduct{}, nil }},
		{"fenzo-fitness", "Fenzo's fitness calculator averaged with soft constraints", newCalculatorArgs, func(c *sim.Cluster, a Args) (Scorer, error) {
			return NewFenzoFitness(c, calculator(a), "", "")
		}},
	} {
		scorers[s.Name] = s
	}
}

// scorers is the registry of scorers for Spec.Scorers, by name.
var scorers = map[string]ScorerDef{}

// RegisterStrategy adds a placement strategy written outside this
// package: runs then choose it by name (--placement, placement: in a
// spec, a sweep's placement axis), its arguments decoded strictly from
// the placement: block. The name must be new. Register before replaying,
// from an init function or main: the registry is not guarded against
// concurrent runs.
func RegisterStrategy(s Strategy) error {
	if err := checkEntry(s.Name, s.Build == nil, func() bool { _, ok := strategies[s.Name]; return ok }); err != nil {
		return fmt.Errorf("placement strategy %w", err)
	}
	strategies[s.Name] = s
	return nil
}

// RegisterScorer adds a scorer of Spec.Scorers, as RegisterStrategy.
func RegisterScorer(s ScorerDef) error {
	if err := checkEntry(s.Name, s.Build == nil, func() bool { _, ok := scorers[s.Name]; return ok }); err != nil {
		return fmt.Errorf("placement scorer %w", err)
	}
	scorers[s.Name] = s
	return nil
}

func checkEntry(name string, noBuild bool, taken func() bool) error {
	switch {
	case name == "" || name != strings.ToLower(name) || strings.ContainsAny(name, " \t\n,"):
		return fmt.Errorf("name %q: want a lower-case word", name)
	case noBuild:
		return fmt.Errorf("%q: Build is nil", name)
	case taken():
		return fmt.Errorf("%q is already registered", name)
	}
	return nil
}

// Strategies returns the strategy names, sorted.
func Strategies() []string { return sortedKeys(strategies) }

// StrategyDoc returns a strategy's one-line description.
func StrategyDoc(name string) string { return strategies[name].Doc }

// ScorerNames returns the scorer names, sorted.
func ScorerNames() []string {
	names := make([]string, 0, len(scorers))
	for k := range scorers {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// ScorerDoc returns a scorer's one-line description.
func ScorerDoc(name string) string { return scorers[name].Doc }

func sortedKeys(m map[string]Strategy) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Build checks s against cluster c and returns its pipeline. It reports
// every problem at once.
func Build(c *sim.Cluster, s Spec) (*Pipeline, error) {
	var errs []error
	name := s.Strategy
	if name == "" {
		name = "first-fit"
	}
	st, ok := strategies[name]
	if !ok {
		return nil, fmt.Errorf("unknown placement strategy %q (known: %s)", name, strings.Join(Strategies(), ", "))
	}
	var p *Pipeline
	if err := validArgs(s.Args, st.NewArgs); err != nil {
		errs = append(errs, fmt.Errorf("placement %s: %w", name, err))
	} else if p, err = st.Build(c, &s); err != nil {
		errs = append(errs, fmt.Errorf("placement %s: %w", name, err))
	}
	if p == nil {
		p = &Pipeline{}
	}
	p.Name = name
	p.Filters = append(traitFilters(), p.Filters...)
	for i := range s.Scorers {
		sc := &s.Scorers[i]
		def, ok := scorers[sc.Name]
		if !ok {
			errs = append(errs, fmt.Errorf("placement scorers[%d]: unknown scorer %q (known: %s)", i, sc.Name, strings.Join(ScorerNames(), ", ")))
			continue
		}
		if !finiteWeight(sc.Weight) {
			errs = append(errs, fmt.Errorf("placement scorers[%d] (%s): weight must be a finite number ≥ 0", i, sc.Name))
		}
		if err := validArgs(sc.Args, def.NewArgs); err != nil {
			errs = append(errs, fmt.Errorf("placement scorers[%d] (%s): %w", i, sc.Name, err))
			continue
		}
		scorer, err := def.Build(c, sc.Args)
		if err != nil {
			errs = append(errs, fmt.Errorf("placement scorers[%d] (%s): %w", i, sc.Name, err))
			continue
		}
		p.Scorers = append(p.Scorers, Weighted{scorer, sc.Weight})
	}
	switch {
	case s.Limit == Auto:
		p.Limit = CandidateLimit(len(c.Nodes))
	case s.Limit > 0:
		p.Limit = int(s.Limit)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// validArgs validates args, which must be of the type newArgs makes
// (none when newArgs is nil); nil args are the defaults.
func validArgs(args Args, newArgs func() Args) error {
	if args == nil {
		return nil
	}
	if newArgs == nil {
		return errors.New("takes no arguments")
	}
	if want := newArgs(); reflect.TypeOf(args) != reflect.TypeOf(want) {
		return fmt.Errorf("arguments are a %T, want a %T", args, want)
	}
	return args.Validate()
}

// defaultResources resolves a weight list; empty means cpu and mem with
// weight 1 each, those the cluster has (k8s' default), else every resource.
func defaultResources(c *sim.Cluster, ws Weights) ([]ResourceWeight, error) {
	if len(ws) == 0 {
		for _, name := range []string{"cpu", "mem"} {
			if _, ok := c.ResourceIndex(name); ok {
				ws = append(ws, ResourceWeight{Name: name, Weight: 1})
			}
		}
		if len(ws) == 0 {
			for _, name := range c.Resources {
				ws = append(ws, ResourceWeight{Name: name, Weight: 1})
			}
		}
	}
	return resolveResources(c, ws)
}

func firstFitStrategy(*sim.Cluster, *Spec) (*Pipeline, error) { return &Pipeline{}, nil }

func roundRobinStrategy(*sim.Cluster, *Spec) (*Pipeline, error) {
	return &Pipeline{Select: newRoundRobin()}, nil
}

func randomStrategy(_ *sim.Cluster, s *Spec) (*Pipeline, error) {
	return &Pipeline{Select: newRandomPick(s.Seed)}, nil
}

func binpackStrategy(c *sim.Cluster, s *Spec) (*Pipeline, error) {
	if len(resources(s.Args)) == 0 {
		return nil, errors.New("needs a rubric: resources: {cpu: 1, mem: 0.5, …}")
	}
	rubric, err := resolveResources(c, resources(s.Args))
	if err != nil {
		return nil, err
	}
	return &Pipeline{Select: &binpack{rubric: rubric}}, nil
}

func allocationStrategy(most bool) func(*sim.Cluster, *Spec) (*Pipeline, error) {
	return func(c *sim.Cluster, s *Spec) (*Pipeline, error) {
		rs, err := defaultResources(c, resources(s.Args))
		name := "least-allocated"
		if most {
			name = "most-allocated"
		}
		return &Pipeline{Scorers: []Weighted{{&allocation{name: name, resources: rs, most: most}, 1}}}, err
	}
}

func balancedStrategy(c *sim.Cluster, s *Spec) (*Pipeline, error) {
	rs, err := defaultResources(c, resources(s.Args))
	return &Pipeline{Scorers: []Weighted{{&balanced{resources: rs}, 1}}}, err
}

func scorerStrategy(sc Scorer) func(*sim.Cluster, *Spec) (*Pipeline, error) {
	return func(*sim.Cluster, *Spec) (*Pipeline, error) {
		return &Pipeline{Scorers: []Weighted{{sc, 1}}}, nil
	}
}

func fenzoStrategy(c *sim.Cluster, s *Spec) (*Pipeline, error) {
	f, err := NewFenzoFitness(c, calculator(s.Args), "", "")
	if err != nil {
		return nil, err
	}
	return &Pipeline{Scorers: []Weighted{{f, 1}}}, nil
}
