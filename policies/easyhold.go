package policies

import "github.com/schedsim/schedsim/sim"

// headHold is, per resource, the free amount now that jobs running past the
// shadow cannot use because the head needs it then: on each reserved node,
// what is free beyond what the head leaves there. The free totals less it
// are a quick necessary condition for such a job, tested before scanning
// nodes.
//
// Summing it over the reserved nodes took as long as the reservation on a
// large machine, so each node's share is kept and only the nodes whose free
// amounts or extra change are summed again.
type headHold struct {
	total  []sim.Amount
	byNode []sim.Amount // each reserved node's share, by the slots of extra
	picks  uint64       // the reservation's picks when it was summed
	ok     bool
}

// valid reports whether the hold matches reservation r's current nodes.
func (h *headHold) valid(r *headReservation) bool { return h.ok && h.picks == r.picks }

// sum computes the hold over every node reserved by r.
func (h *headHold) sum(c *sim.Context, r *headReservation) {
	R := c.Cluster().NumResources()
	free := c.FreeVector()
	h.total = append(h.total[:0], make([]sim.Amount, R)...)
	h.byNode = h.byNode[:0]
	for _, n := range r.extra.nodes {
		ex, _ := r.extra.get(n)
		for res := 0; res < R; res++ {
			s := holdShare(free[int(n)*R+res], ex[res])
			h.byNode = append(h.byNode, s)
			h.total[res] += s
		}
	}
	h.picks, h.ok = r.picks, true
}

// update sums again the shares of nodes (reserved or not) after their free
// amounts or extra changed.
func (h *headHold) update(c *sim.Context, r *headReservation, nodes []int32) {
	if !h.valid(r) {
		return
	}
	R := c.Cluster().NumResources()
	free := c.FreeVector()
	for _, n := range nodes {
		slot := r.extra.slot[n]
		if slot == 0 {
			continue
		}
		ex, _ := r.extra.get(n)
		base := int(slot-1) * R
		for res := 0; res < R; res++ {
			s := holdShare(free[int(n)*R+res], ex[res])
			h.total[res] += s - h.byNode[base+res]
			h.byNode[base+res] = s
		}
	}
}

// holdShare is what the head holds of free amount f on a node where it
// leaves ex.
func holdShare(f, ex sim.Amount) sim.Amount {
	if f == sim.Absent || f <= 0 {
		return 0
	}
	return f - max(0, min(f, ex))
}
