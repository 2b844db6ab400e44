package policies

import (
	"math/bits"

	"github.com/schedsim/schedsim/sim"
)

// candidates calls visit for the nodes, in index order, that could hold a
// task with request req now: those with some of req's first positive
// resource that leaves define free (sim.Context.AvailableNodes), or every
// node when req asks for no such thing (tags, or only resources of the
// levels above). visit returns false to stop.
func candidates(c *sim.Context, req []sim.Need, visit func(n int) bool) {
	candidatesBut(c, req, nil, visit)
}

// candidatesBut is candidates without the nodes of bitset skip (nil skips
// none).
func candidatesBut(c *sim.Context, req []sim.Need, skip []uint64, visit func(n int) bool) {
	cl := c.Cluster()
	for _, q := range req {
		if q.Amt > 0 && cl.LeafLevel(int(q.Res)) {
			for w, word := range c.AvailableNodes(int(q.Res)) {
				if w < len(skip) {
					word &^= skip[w]
				}
				for ; word != 0; word &= word - 1 {
					if !visit(w*64 + bits.TrailingZeros64(word)) {
						return
					}
				}
			}
			return
		}
	}
	for n := range cl.Nodes {
		if n/64 < len(skip) && skip[n/64]&(1<<(n%64)) != 0 {
			continue
		}
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
