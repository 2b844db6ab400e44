package policies

import (
	"github.com/schedsim/schedsim/sim"
)

// candidates calls visit for the nodes, in index order, that could hold a
// task with request req now: those with some of req's first positive
// resource that leaves define free (sim.Context.AvailableNodes), or every
// node when req asks for no such thing (tags, or only resources of the
// levels above). visit returns false to stop.
func candidates(c *sim.Context, req []sim.Need, visit func(n int) bool) {
	cl := c.Cluster()
	for _, q := range req {
		if q.Amt > 0 && cl.LeafLevel(int(q.Res)) {
			sim.ForEachNode(c.AvailableNodes(int(q.Res)), visit)
			return
		}
	}
	for n := range c.Cluster().Nodes {
		if !visit(n) {
			return
		}
	}
}

// nodeVectors holds one resource vector for some nodes, found by node index
// in O(1), cleared in time proportional to the nodes touched.
type nodeVectors struct {
	R     int
	slot  []int32 // node → 1 + slot; 0 when absent
	nodes []int32 // nodes present, in insertion order
	vals  []sim.Amount
}

func (v *nodeVectors) reset(numNodes, R int) {
	for _, n := range v.nodes {
		v.slot[n] = 0
	}
	if len(v.slot) != numNodes {
		v.slot = make([]int32, numNodes)
	}
	v.R, v.nodes, v.vals = R, v.nodes[:0], v.vals[:0]
}

// get returns node n's vector, if present. The slice is valid until the
// next put.
func (v *nodeVectors) get(n int32) ([]sim.Amount, bool) {
	s := v.slot[n]
	if s == 0 {
		return nil, false
	}
	i := int(s-1) * v.R
	return v.vals[i : i+v.R], true
}

// put adds node n with a copy of init and returns its vector.
func (v *nodeVectors) put(n int32, init []sim.Amount) []sim.Amount {
	v.vals = append(v.vals, init...)
	v.nodes = append(v.nodes, n)
	v.slot[n] = int32(len(v.nodes))
	i := (len(v.nodes) - 1) * v.R
	return v.vals[i : i+v.R]
}
