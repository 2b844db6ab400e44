package placement

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// strategy is one named configuration of the pipeline.
type strategy struct {
	doc   string
	args  []string // the Spec fields it reads
	build func(c *sim.Cluster, s *Spec) (*Pipeline, error)
}

// strategies is the registry: name → constructor. Adding a strategy is one
// line here, its constructor, its test and a scenario.
var strategies = map[string]strategy{
	"first-fit":           {"the lowest-numbered node with room (the default)", nil, firstFitStrategy},
	"prioritized":         {"pylighthouse's PrioritizedDistributor: first fit in the node list's order", nil, firstFitStrategy},
	"round-robin":         {"pylighthouse's RoundRobinDistributor: the first node with room after the one used last", nil, roundRobinStrategy},
	"binpack":             {"pylighthouse's BinPackDistributor: the node with the least room by resources (the rubric), ties by node name", []string{"resources"}, binpackStrategy},
	"least-allocated":     {"k8s LeastAllocated (spread): the node with the largest free share after placement", []string{"resources"}, allocationStrategy(false)},
	"spread":              {"alias of least-allocated", []string{"resources"}, allocationStrategy(false)},
	"most-allocated":      {"k8s MostAllocated: the node with the largest used share after placement (packing)", []string{"resources"}, allocationStrategy(true)},
	"balanced-allocation": {"k8s BalancedAllocation: the node whose resources fill most evenly", []string{"resources"}, balancedStrategy},
	"fewest-instances":    {"LXD's default: the node running the fewest tasks", nil, scorerStrategy(fewestInstances{})},
	"random":              {"a feasible node chosen uniformly, seeded by --seed", nil, randomStrategy},
	"dot-product":         {"Tetris: the node whose free resources best align with the task's demand", nil, scorerStrategy(dotProduct{})},
	"fenzo":               {"Fenzo: bin-packing fitness (calculator cpu, mem, cpu+mem or none) averaged with the task's soft constraints", []string{"calculator"}, fenzoStrategy},
	"fgd":                 {"FGD (Weng et al., ATC'23): the node and GPU whose fragmentation against the workload's task types grows least (GPU devices)", nil, gpuStrategy("fgd")},
	"best-fit":            {"FGD paper's best-fit: the node left with the least free CPU and GPU (GPU devices)", nil, gpuStrategy("best-fit")},
	"gpu-packing":         {"FGD paper's GPU packing: partly used GPUs, then used nodes, then idle nodes (GPU devices)", nil, gpuStrategy("gpu-packing")},
	"gpu-clustering":      {"FGD paper's GPU clustering: nodes running tasks of the same GPU kind first (GPU devices)", nil, gpuStrategy("gpu-clustering")},
	"gpu-dot-product":     {"FGD paper's Tetris dot product of free (CPU, GPU) and demand, fullest first (GPU devices)", nil, gpuStrategy("gpu-dot-product")},
	"gpu-random":          {"FGD paper's random: a uniformly random node where the task fits its GPUs, seeded by --seed", nil, gpuStrategy("gpu-random")},
}

// scorers is the registry of scorers for Spec.Scorers.
var scorers = map[string]struct {
	doc   string
	args  []string
	build func(c *sim.Cluster, s *Scoring) (Scorer, error)
}{
	"least-allocated": {"free share after placement, weighted mean over resources", []string{"resources"}, func(c *sim.Cluster, s *Scoring) (Scorer, error) {
		rs, err := defaultResources(c, s.Resources)
		return &allocation{name: "least-allocated", resources: rs}, err
	}},
	"most-allocated": {"used share after placement, weighted mean over resources", []string{"resources"}, func(c *sim.Cluster, s *Scoring) (Scorer, error) {
		rs, err := defaultResources(c, s.Resources)
		return &allocation{name: "most-allocated", resources: rs, most: true}, err
	}},
	"balanced-allocation": {"1 − standard deviation of the used shares", []string{"resources"}, func(c *sim.Cluster, s *Scoring) (Scorer, error) {
		rs, err := defaultResources(c, s.Resources)
		return &balanced{resources: rs}, err
	}},
	"spread": {"1 − share of the job's tasks already on this node's attribute value", []string{"attribute"}, func(c *sim.Cluster, s *Scoring) (Scorer, error) {
		if s.Attribute == "" {
			return nil, errors.New("spread needs an attribute")
		}
		return &spreadScorer{attribute: s.Attribute}, nil
	}},
	"taint-preference": {"1 / (1 + PreferNoSchedule taints not tolerated)", nil, func(*sim.Cluster, *Scoring) (Scorer, error) { return taintPreference{}, nil }},
	"fewest-instances": {"1 / (1 + tasks on the node)", nil, func(*sim.Cluster, *Scoring) (Scorer, error) { return fewestInstances{}, nil }},
	"dot-product":      {"alignment of demand and free resources", nil, func(*sim.Cluster, *Scoring) (Scorer, error) { return dotProduct{}, nil }},
	"fenzo-fitness": {"Fenzo's fitness calculator averaged with soft constraints", []string{"calculator"}, func(c *sim.Cluster, s *Scoring) (Scorer, error) {
		calc := s.Calculator
		if calc == "" {
			calc = "cpu+mem"
		}
		return NewFenzoFitness(c, calc, "", "")
	}},
}

// Strategies returns the strategy names, sorted.
func Strategies() []string { return sortedKeys(strategies) }

// StrategyDoc returns a strategy's one-line description.
func StrategyDoc(name string) string { return strategies[name].doc }

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
func ScorerDoc(name string) string { return scorers[name].doc }

func sortedKeys(m map[string]strategy) []string {
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
	for _, a := range unexpected(s.args(), st.args) {
		errs = append(errs, fmt.Errorf("placement %s does not take %s", name, a))
	}
	p, err := st.build(c, &s)
	if err != nil {
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
		for _, a := range unexpected(sc.args(), def.args) {
			errs = append(errs, fmt.Errorf("placement scorers[%d] (%s) does not take %s", i, sc.Name, a))
		}
		if !finiteWeight(sc.Weight) {
			errs = append(errs, fmt.Errorf("placement scorers[%d] (%s): weight must be a finite number ≥ 0", i, sc.Name))
		}
		scorer, err := def.build(c, sc)
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
	if len(s.Resources) == 0 {
		return nil, errors.New("needs a rubric: resources: {cpu: 1, mem: 0.5, …}")
	}
	rubric, err := resolveResources(c, s.Resources)
	if err != nil {
		return nil, err
	}
	return &Pipeline{Select: &binpack{rubric: rubric}}, nil
}

func allocationStrategy(most bool) func(*sim.Cluster, *Spec) (*Pipeline, error) {
	return func(c *sim.Cluster, s *Spec) (*Pipeline, error) {
		rs, err := defaultResources(c, s.Resources)
		name := "least-allocated"
		if most {
			name = "most-allocated"
		}
		return &Pipeline{Scorers: []Weighted{{&allocation{name: name, resources: rs, most: most}, 1}}}, err
	}
}

func balancedStrategy(c *sim.Cluster, s *Spec) (*Pipeline, error) {
	rs, err := defaultResources(c, s.Resources)
	return &Pipeline{Scorers: []Weighted{{&balanced{resources: rs}, 1}}}, err
}

func scorerStrategy(sc Scorer) func(*sim.Cluster, *Spec) (*Pipeline, error) {
	return func(*sim.Cluster, *Spec) (*Pipeline, error) {
		return &Pipeline{Scorers: []Weighted{{sc, 1}}}, nil
	}
}

func fenzoStrategy(c *sim.Cluster, s *Spec) (*Pipeline, error) {
	calc := s.Calculator
	if calc == "" {
		calc = "cpu+mem"
	}
	f, err := NewFenzoFitness(c, calc, "", "")
	if err != nil {
		return nil, err
	}
	return &Pipeline{Scorers: []Weighted{{f, 1}}}, nil
}
