package placement

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// Distributor is pylighthouse's distributor as a Go library, without the
// engine: nodes with free-form resources, loads with requirements,
// immunities and aversion groups, and Assign, which places loads and
// remembers them (distributors are stateful). It runs the same pipeline
// and ledger as a simulation.
type Distributor struct {
	ledger   *Ledger
	pipe     *Pipeline
	rubric   []ResourceWeight // binpack: loads go biggest first
	nextKey  int64
	keys     map[string]*Task
	clusterR map[string]bool
}

// Node is a library node: a unique name and its resources (negative for a
// shortcoming, math.Inf(-1) for a ward, 0 for a tag).
type Node struct {
	Name      string
	Resources map[string]float64
}

// Load is a library workload: a unique name, its requirements, the
// resources it is immune to, and its aversion groups.
type Load struct {
	Name           string
	Requirements   map[string]float64
	Immunities     []string
	AversionGroups []string
}

// Assignment is where one load went; Node is "" when it fits nowhere.
type Assignment struct {
	Load, Node string
}

// NewPrioritized places each load on the first node, in list order, that
// takes it.
func NewPrioritized(nodes []Node) (*Distributor, error) {
	return newDistributor(nodes, Spec{Strategy: "prioritized"})
}

// NewRoundRobin starts each search on the node after the one that took the
// previous load.
func NewRoundRobin(nodes []Node) (*Distributor, error) {
	return newDistributor(nodes, Spec{Strategy: "round-robin"})
}

// NewBinPack packs loads, biggest first by the rubric, onto the node with
// the least room by the rubric, ties by node name.
func NewBinPack(rubric map[string]float64, nodes []Node) (*Distributor, error) {
	return newDistributor(nodes, Spec{Strategy: "binpack", Args: &ResourceArgs{Resources: sortedWeights(rubric)}})
}

func newDistributor(nodes []Node, spec Spec) (*Distributor, error) {
	specs := make([]sim.NodeSpec, len(nodes))
	have := map[string]bool{}
	for i, n := range nodes {
		specs[i] = sim.NodeSpec{Name: n.Name, Capacity: quantities(n.Resources)}
		for r := range n.Resources {
			have[r] = true
		}
	}
	if len(nodes) == 0 {
		// An empty distributor assigns nothing; give it a node that fits
		// nothing so the cluster is valid.
		specs = []sim.NodeSpec{{Name: "\x00none", Capacity: []sim.Quantity{{Resource: "\x00none", Amount: sim.Ward}}}}
	}
	c, err := sim.NewCluster(specs)
	if err != nil {
		return nil, err
	}
	// The rubric may name resources no node has: they score 0.
	var rubric []ResourceWeight
	var known Weights
	for _, w := range resources(spec.Args) {
		if have[w.Name] {
			known = append(known, w)
		}
		rubric = append(rubric, w)
	}
	if spec.Strategy == "binpack" && len(known) == 0 {
		known = Weights{{Name: c.Resources[0], Weight: 0}}
	}
	if spec.Args != nil || known != nil {
		spec.Args = &ResourceArgs{Resources: known}
	}
	p, err := Build(c, spec)
	if err != nil {
		return nil, err
	}
	return &Distributor{ledger: NewLedger(c), pipe: p, rubric: rubric, keys: map[string]*Task{}, clusterR: have}, nil
}

// Assign places the loads (for binpack, biggest first; otherwise in the
// order given) and returns their assignments in the order given.
func (d *Distributor) Assign(loads []Load) []Assignment {
	order := make([]int, len(loads))
	for i := range order {
		order[i] = i
	}
	if d.rubric != nil {
		sort.SliceStable(order, func(a, b int) bool {
			return d.size(loads[order[a]].Requirements) > d.size(loads[order[b]].Requirements)
		})
	}
	out := make([]Assignment, len(loads))
	for _, i := range order {
		out[i] = Assignment{Load: loads[i].Name, Node: d.assign(&loads[i])}
	}
	return out
}

// size is a load's rubric score.
func (d *Distributor) size(req map[string]float64) float64 {
	s := 0.0
	for _, w := range d.rubric {
		s += w.Weight * req[w.Name]
	}
	return s
}

func (d *Distributor) assign(ld *Load) string {
	if len(d.ledger.Leaves()) == 0 || d.ledger.Cluster.Nodes[0].Name == "\x00none" {
		return ""
	}
	for r := range ld.Requirements {
		if !d.clusterR[r] {
			return "" // no node has it, so no node can take the load
		}
	}
	job := &sim.Job{ID: ld.Name, Tasks: 1, Request: quantities(ld.Requirements),
		Traits: &sim.Traits{Immunities: ld.Immunities, AversionGroups: ld.AversionGroups}}
	need, immune, err := d.ledger.Cluster.Compile(job)
	if err != nil {
		return ""
	}
	t := &Task{Key: d.nextKey, Job: job, Need: need, Immune: immune}
	d.nextKey++
	n := d.pipe.Place(d.ledger, t, nil)
	if n < 0 {
		return ""
	}
	d.ledger.Take(t, n)
	d.keys[ld.Name] = t
	return d.ledger.Cluster.Nodes[n].Name
}

// Release removes a load placed earlier, giving back what it took.
func (d *Distributor) Release(load string) error {
	t, ok := d.keys[load]
	if !ok {
		return fmt.Errorf("load %q is not placed", load)
	}
	d.ledger.Release(t)
	delete(d.keys, load)
	return nil
}

// quantities turns a resource map into quantities, sorted by name so the
// cluster's resource numbering does not depend on map order.
func quantities(m map[string]float64) []sim.Quantity {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	qs := make([]sim.Quantity, 0, len(m))
	for _, k := range names {
		v := m[k]
		var a sim.Amount
		switch {
		case math.IsInf(v, -1) || v*1000 < float64(sim.Ward):
			a = sim.Ward
		case math.IsInf(v, 1) || v*1000 > 9e15:
			a = 9e15
		default:
			a = sim.Amount(math.Round(v * 1000))
		}
		qs = append(qs, sim.Quantity{Resource: k, Amount: a})
	}
	return qs
}

func sortedWeights(m map[string]float64) Weights {
	var w Weights
	for _, q := range quantities(m) {
		w = append(w, ResourceWeight{Name: q.Resource, Weight: m[q.Resource]})
	}
	return w
}
