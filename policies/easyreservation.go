package policies

import (
	"github.com/schedsim/schedsim/policies/internal/byend"
	"github.com/schedsim/schedsim/sim"
)

// headReservation is EASY's reservation for the queue head: the shadow (the
// first expected end after which enough of the head's tasks fit), what each
// node is projected to hold free then, and what the head leaves on the
// nodes it reserves ("extra"). Capacity is counted per node with
// sim.TasksFittingIn, capped at the head's task count.
//
// Computing it walks the running jobs' nodes in end order up to the shadow,
// thousands of nodes on a large machine, so it is kept from pass to pass and
// updated as jobs start and end, equal at every pass to what computing it
// again would give:
//   - a job that ends before the shadow leaves both the capacity at the
//     shadow and the capacity just before it as they were;
//   - one expected to end at the shadow raises the capacity just before it;
//   - one expected to end after it raises both;
//   - a backfilled job that ends before the shadow changes neither, one
//     ending at it lowers the capacity just before it, one running past it
//     lowers both (and takes only what the head leaves).
//
// When the capacity just before the shadow reaches the head's need, the
// shadow moves earlier and the reservation is computed again; when the
// capacity at the shadow grows on a node at or below the highest reserved
// one, the nodes are picked again. A node event, a cluster with ancestors
// or negative amounts, a shadow no longer in the future (jobs past their
// estimate are then expected to end now, a time that moves) or another
// head also compute it again.
type headReservation struct {
	head   *sim.JobRun // nil when none is kept
	shadow sim.Time
	need   int // the head's tasks
	// atShadow holds the projected free amounts at the shadow of the nodes
	// some job frees by then or that changed since; any other node's is its
	// free amount now.
	atShadow nodeVectors
	// lastEnds holds what the jobs expected to end at the shadow itself
	// free on each node: the capacity just before the shadow is atShadow
	// less lastEnds.
	lastEnds nodeVectors
	// before is the head's task count just before the shadow, short of need.
	before int
	extra  nodeVectors // what the head leaves on its reserved nodes
	last   int32       // the highest reserved node; −1 when none
	picks  uint64      // counts the times extra was filled afresh
	// exhausted is a bitset of the reserved nodes where the head leaves
	// nothing (every amount ≤ 0): no task asking for something fits there
	// past the shadow.
	exhausted []uint64
	// keepable says the reservation may be kept to the next pass.
	keepable bool
	cand     []uint64 // nodes with room at the shadow
	zero     []sim.Amount
	tmp      []sim.Amount
}

// compute finds head's shadow and its reservation afresh from the running
// jobs' ends. With no possible reservation it returns sim.Forever and an
// empty extra.
func (h *headReservation) compute(c *sim.Context, ends *byend.List, head *sim.JobRun) sim.Time {
	now := c.Now()
	cl := c.Cluster()
	R := cl.NumResources()
	free := c.FreeVector()
	need := head.Job.Tasks
	req := head.Needs()
	h.head, h.need = head, need
	h.atShadow.reset(len(cl.Nodes), R)
	h.lastEnds.reset(len(cl.Nodes), R)
	h.clearExtra(c)
	if len(h.zero) != R {
		h.zero, h.tmp = make([]sim.Amount, R), make([]sim.Amount, R)
	}

	total := 0
	candidates(c, req, func(n int) bool {
		total += sim.TasksFittingIn(free, R, n, req, need)
		return true
	})
	// A head that fits now by these counts but was not placed (a placement
	// rule refused it) gets no reservation, and that holds only as long as
	// the free amounts do.
	h.keepable = total < need && !cl.Special() && !c.NodeEventsEnabled()
	h.shadow = sim.Forever
	var lastGroup byend.Cursor
	for e := ends.Cursor(); e.Valid() && total < need; {
		t := e.Job().ExpectedEnd(now)
		h.before, lastGroup = total, e
		// Release every job ending at t before checking.
		for ; e.Valid() && e.Job().ExpectedEnd(now) == t; e.Next() {
			r := e.Job()
			for _, n := range r.Nodes {
				v, ok := h.atShadow.get(n)
				if !ok {
					v = h.atShadow.put(n, free[int(n)*R:int(n)*R+R])
				}
				before := sim.TasksFittingIn(v, R, 0, req, need)
				for _, q := range r.Needs() {
					v[q.Res] += q.Amt
				}
				total += sim.TasksFittingIn(v, R, 0, req, need) - before
			}
		}
		if total >= need {
			h.shadow = t
		}
	}
	if h.shadow == sim.Forever {
		h.before = total
		return h.shadow
	}
	for e := lastGroup; e.Valid() && e.Job().ExpectedEnd(now) == h.shadow; e.Next() {
		r := e.Job()
		for _, n := range r.Nodes {
			h.addNeeds(&h.lastEnds, n, r.Needs(), 1)
		}
	}
	h.pick(c)
	return h.shadow
}

// addNeeds adds sign times one task's needs to node n's vector in v, which
// starts at zero.
func (h *headReservation) addNeeds(v *nodeVectors, n int32, needs []sim.Need, sign sim.Amount) {
	g, ok := v.get(n)
	if !ok {
		g = v.put(n, h.zero)
	}
	for _, q := range needs {
		g[q.Res] += sign * q.Amt
	}
}

// pick reserves the lowest-numbered nodes with room at the shadow, among
// those with room now and those some job frees by then, and fills extra.
func (h *headReservation) pick(c *sim.Context) {
	R := c.Cluster().NumResources()
	free := c.FreeVector()
	req := h.head.Needs()
	h.clearExtra(c)
	h.cand = h.cand[:0]
	mark := func(n int) {
		for len(h.cand) <= n/64 {
			h.cand = append(h.cand, 0)
		}
		h.cand[n/64] |= 1 << (n % 64)
	}
	candidates(c, req, func(n int) bool {
		mark(n)
		return true
	})
	for _, n := range h.atShadow.nodes {
		mark(int(n))
	}
	left := h.need
	sim.ForEachNode(h.cand, func(n int) bool {
		v, ok := h.atShadow.get(int32(n))
		if !ok {
			v = free[n*R : n*R+R]
		}
		k := sim.TasksFittingIn(v, R, 0, req, left)
		if k == 0 {
			return true
		}
		ex := h.extra.put(int32(n), v)
		for _, q := range req {
			ex[q.Res] -= q.Amt * sim.Amount(k)
		}
		h.markExhausted(int32(n), ex)
		h.last = int32(n)
		left -= k
		return left > 0
	})
}

// clearExtra empties extra before it is filled afresh.
func (h *headReservation) clearExtra(c *sim.Context) {
	for _, n := range h.extra.nodes {
		h.exhausted[n/64] &^= 1 << (n % 64)
	}
	if words := (len(c.Cluster().Nodes) + 63) / 64; len(h.exhausted) != words {
		h.exhausted = make([]uint64, words)
	}
	h.extra.reset(len(c.Cluster().Nodes), c.Cluster().NumResources())
	h.last = -1
	h.picks++
}

// markExhausted records whether reserved node n, which the head leaves ex,
// has nothing left.
func (h *headReservation) markExhausted(n int32, ex []sim.Amount) {
	h.exhausted[n/64] |= 1 << (n % 64)
	for _, a := range ex {
		if a > 0 {
			h.exhausted[n/64] &^= 1 << (n % 64)
			return
		}
	}
}

// takeExtra books what a job that runs past the shadow takes from what the
// head leaves on its nodes.
func (h *headReservation) takeExtra(j *sim.JobRun, nodes []int32) {
	for _, n := range nodes {
		if ex, ok := h.extra.get(n); ok {
			for _, q := range j.Needs() {
				ex[q.Res] -= q.Amt
			}
			h.markExhausted(n, ex)
		}
	}
}

// fitBefore is how many of the head's tasks fit on node n just before the
// shadow, capped at its need.
func (h *headReservation) fitBefore(free []sim.Amount, R int, n int32) int {
	v, ok := h.atShadow.get(n)
	if !ok {
		v = free[int(n)*R : int(n)*R+R]
	}
	if g, ok := h.lastEnds.get(n); ok {
		for r := range h.tmp {
			h.tmp[r] = v[r] - g[r]
		}
		v = h.tmp
	}
	return sim.TasksFittingIn(v, R, 0, h.head.Needs(), h.need)
}

// keeps reports whether the reservation kept from the last pass is still
// head's, after applying the jobs that ended since (c.Ended()).
func (h *headReservation) keeps(c *sim.Context, head *sim.JobRun) bool {
	return h.head != nil && h.head == head && h.shadow > c.Now()
}

// ended applies the jobs that ended since the last pass, or forgets the
// reservation when that would move its shadow. Call it first in a pass.
func (h *headReservation) ended(c *sim.Context) {
	if h.head == nil {
		return
	}
	if !h.keepable || len(c.NodeChanges()) > 0 {
		h.head = nil
		return
	}
	R := c.Cluster().NumResources()
	free := c.FreeVector()
	ended := c.Ended()
	// A node no job frees by the shadow has the free amount now as its
	// projection, which already counts the jobs that just ended: bring
	// those nodes in as they were before.
	mark := len(h.atShadow.nodes)
	for _, j := range ended {
		if byend.Key(j) > h.shadow {
			for _, n := range j.Nodes {
				if _, ok := h.atShadow.get(n); !ok {
					h.atShadow.put(n, free[int(n)*R:int(n)*R+R])
				}
			}
		}
	}
	if len(h.atShadow.nodes) > mark {
		for _, j := range ended {
			if byend.Key(j) > h.shadow {
				for _, n := range j.Nodes {
					if int(h.atShadow.slot[n]) > mark {
						h.addNeeds(&h.atShadow, n, j.Needs(), -1)
					}
				}
			}
		}
	}
	repick := false
	for _, j := range ended {
		end := byend.Key(j)
		if end < h.shadow {
			continue
		}
		for _, n := range j.Nodes {
			b := h.fitBefore(free, R, n)
			if end == h.shadow {
				h.addNeeds(&h.lastEnds, n, j.Needs(), -1)
			} else {
				h.addNeeds(&h.atShadow, n, j.Needs(), 1)
				repick = repick || n <= h.last
			}
			h.before += h.fitBefore(free, R, n) - b
		}
	}
	if h.before >= h.need {
		h.head = nil // the shadow moves earlier
		return
	}
	if repick {
		h.pick(c)
	}
}

// starting applies a backfilled job j about to start on nodes; crosses
// says it runs past the shadow (the caller takes its share from extra).
// Call it before the engine changes the free amounts.
func (h *headReservation) starting(c *sim.Context, j *sim.JobRun, nodes []int32) {
	if h.head == nil || h.shadow == sim.Forever {
		return
	}
	R := c.Cluster().NumResources()
	free := c.FreeVector()
	for _, n := range nodes {
		if _, ok := h.atShadow.get(n); !ok {
			h.atShadow.put(n, free[int(n)*R:int(n)*R+R])
		}
	}
	end := c.Now() + j.EstimatedRuntime()
	if end < h.shadow {
		return
	}
	for _, n := range nodes {
		b := h.fitBefore(free, R, n)
		if end == h.shadow {
			h.addNeeds(&h.lastEnds, n, j.Needs(), 1)
		} else {
			h.addNeeds(&h.atShadow, n, j.Needs(), -1)
		}
		h.before += h.fitBefore(free, R, n) - b
	}
}
