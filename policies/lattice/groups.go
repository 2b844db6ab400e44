package lattice

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// Default node attributes naming a node's topology group (the seed's
// dragonfly group; a rack on most clusters) and its conformance
// fingerprint (the hash of driver, firmware and kernel parameters that the
// node agent reports).
const (
	DefaultTopologyAttribute    = "rack"
	DefaultConformanceAttribute = "conformance"
)

// grouping assigns every node a group id by the value of one attribute.
// Nodes without the attribute share the group of the empty value, so a
// cluster that names no groups is one group.
type grouping struct {
	of    []int32  // node → group id
	names []string // group id → attribute value
}

func newGrouping(c *sim.Cluster, attr string) grouping {
	g := grouping{of: make([]int32, len(c.Nodes))}
	index := map[string]int32{}
	for n, spec := range c.Nodes {
		v := ""
		if attr != "" {
			v = spec.Attributes[attr]
		}
		id, ok := index[v]
		if !ok {
			id = int32(len(g.names))
			index[v] = id
			g.names = append(g.names, v)
		}
		g.of[n] = id
	}
	return g
}

func (g *grouping) size() int { return len(g.names) }

// capacities are, for one request, how many of its tasks each topology
// group and each conformance group can hold now: what f₄ and f₉ need.
type capacities struct {
	sorted    []int // topology group capacities, largest first, zeros dropped
	prefix    []int // prefix[m] = Σ sorted[:m]
	confLarge int   // the largest conformance group's capacity
}

// groupsNeeded is the fewest topology groups holding k tasks, and whether
// any number does.
func (cp *capacities) groupsNeeded(k int) (int, bool) {
	m := sort.SearchInts(cp.prefix, k)
	if m >= len(cp.prefix) {
		return 0, false
	}
	return m, true
}

// factors returns f₄ and f₉ for a job of k tasks.
func (cp *capacities) factors(k int) (topo, conf float64) {
	avail := len(cp.sorted)
	needed, ok := cp.groupsNeeded(k)
	if !ok {
		needed = avail
	}
	return TopologyFitness(needed, avail), ConformanceFitness(cp.confLarge, k)
}

// measure fills cp for request (req, immune) over the free vector, visiting
// the candidate nodes. topoCap and confCap are scratch, one per group.
func measure(cl *sim.Cluster, free []sim.Amount, visit func(func(n int) bool), req []sim.Need, immune []int32, topo, conf *grouping, topoCap, confCap []int) capacities {
	clear(topoCap)
	clear(confCap)
	visit(func(n int) bool {
		if f := cl.TasksFitting(free, n, req, immune, 1<<30); f > 0 {
			topoCap[topo.of[n]] += f
			confCap[conf.of[n]] += f
		}
		return true
	})
	var cp capacities
	for _, v := range topoCap {
		if v > 0 {
			cp.sorted = append(cp.sorted, v)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(cp.sorted)))
	cp.prefix = make([]int, len(cp.sorted)+1)
	for i, v := range cp.sorted {
		cp.prefix[i+1] = cp.prefix[i] + v
	}
	for _, v := range confCap {
		cp.confLarge = max(cp.confLarge, v)
	}
	return cp
}
