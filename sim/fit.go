package sim

// This file holds the one definition of "a task fits a node" (
// §4.6), shared by the engine's check at Start and by every placement
// policy, so the two can never disagree.
//
// A task fits node n when, for every resource r it lists and is not
// immune to, some node on n's usage chain (n and its ancestors) defines r,
// and every chain node defining r keeps a free amount ≥ 0 after the
// subtraction; and no chain node holds a negative free amount of a
// resource the task neither lists nor is immune to (a shortcoming or a
// ward blocks every task that does not overcome it). A resource the task
// does not list is not touched.
//
// Most clusters have no ancestors and no negative amounts, and most jobs
// no immunities: for them tasksFitting takes a short path.

// Ward is the capacity that marks a ward: a negative amount so large that
// no finite requirement overcomes it, only an immunity. The
// cluster YAML writes it as -inf.
const Ward Amount = -1 << 60

// tasksFitting returns how many tasks with request req fit into the free
// amounts of node n (free is the flat free array), capped at limit, for a
// cluster without ancestors or negative amounts and a job without
// immunities.
func tasksFitting(free []Amount, R int, n int, req []Need, limit int) int {
	best := limit
	base := n * R
	for _, q := range req {
		f := free[base+int(q.Res)]
		if f == absent || f < 0 {
			return 0
		}
		if q.Amt <= 0 {
			continue
		}
		// Whole-node jobs and busy nodes fit zero or one task: answer
		// those without a 64-bit division (backfilling asks this for
		// every node at every pass).
		switch {
		case f < q.Amt:
			return 0
		case f-q.Amt < q.Amt:
			best = min(best, 1)
		default:
			best = min(best, int(f/q.Amt))
		}
	}
	return best
}

// TasksFitting returns how many tasks with compiled request req fit on
// node n, one after the other, at most limit, when free (free[n*R+r]) is
// the free amount of every node. immune lists the resources the tasks
// ignore, sorted. It applies the full semantics: ancestors, shortcomings,
// wards and immunities.
func (c *Cluster) TasksFitting(free []Amount, n int, req []Need, immune []int32, limit int) int {
	R := len(c.Resources)
	if !c.special && len(immune) == 0 {
		return tasksFitting(free, R, n, req, limit)
	}
	if c.parentOf != nil && c.isParent[n] {
		return 0 // tasks land on leaves only
	}
	best := limit
	for _, q := range req {
		if contains(immune, q.Res) {
			continue
		}
		defined := false
		for m := n; m >= 0; m = c.parent(m) {
			f := free[m*R+int(q.Res)]
			if f == absent {
				continue
			}
			defined = true
			switch {
			case q.Amt > 0:
				if f < q.Amt {
					return 0
				}
				if k := int(f / q.Amt); k < best {
					best = k
				}
			case f-q.Amt < 0: // zero or negative: the first task must fit
				return 0
			}
		}
		if !defined {
			return 0
		}
	}
	if c.negative {
		for m := n; m >= 0; m = c.parent(m) {
			for r := 0; r < R; r++ {
				f := free[m*R+r]
				if f < 0 && f != absent && !contains(immune, int32(r)) && !listed(req, int32(r)) {
					return 0
				}
			}
		}
	}
	return best
}

// parent returns node n's parent index, or −1.
func (c *Cluster) parent(n int) int {
	if c.parentOf == nil {
		return -1
	}
	return int(c.parentOf[n])
}

// Parent returns node n's parent index, or −1 when it has none.
func (c *Cluster) Parent(n int) int { return c.parent(n) }

// IsParent reports whether node n is some node's parent: a level of the
// hierarchy (rack, switch), which holds no tasks itself.
func (c *Cluster) IsParent(n int) bool { return c.parentOf != nil && c.isParent[n] }

// LeafLevel reports whether some leaf (a node that is no one's parent)
// defines resource r.
func (c *Cluster) LeafLevel(r int) bool { return c.leafLevel[r] }

// Special reports whether the cluster needs the full fit semantics:
// ancestors or negative amounts (shortcomings, wards).
func (c *Cluster) Special() bool { return c.special }

// consume applies one task's request (immune resources too: an immunity
// waives the check, not the subtraction, as in pylighthouse) to node n and every ancestor defining
// each resource (sign +1 takes, −1 gives back). It returns, per resource,
// the amount counted as allocated: what leaves take of resources some leaf
// defines, and what ancestors take of the others.
func (c *Cluster) consume(free []Amount, n int, req []Need, immune []int32, sign Amount, allocated []Amount) {
	if !c.special && len(immune) == 0 {
		base := n * len(c.Resources)
		for _, q := range req {
			free[base+int(q.Res)] -= sign * q.Amt
			if allocated != nil {
				allocated[q.Res] += sign * q.Amt
			}
		}
		return
	}
	R := len(c.Resources)
	for _, q := range req {
		for m := n; m >= 0; m = c.parent(m) {
			i := m*R + int(q.Res)
			if free[i] == absent {
				continue
			}
			free[i] -= sign * q.Amt
			if allocated != nil && q.Amt > 0 && (m == n) == c.leafLevel[q.Res] {
				allocated[q.Res] += sign * q.Amt
			}
		}
	}
}

// Consume applies one task's request to node n and its ancestors in a
// free array laid out like TasksFitting's (sign +1 takes, −1 gives back).
func (c *Cluster) Consume(free []Amount, n int, req []Need, immune []int32, sign Amount) {
	c.consume(free, n, req, immune, sign, nil)
}

// CapacityVector returns a copy of the capacities, laid out like the free
// array of TasksFitting: the free amounts of the empty cluster.
func (c *Cluster) CapacityVector() []Amount { return append([]Amount(nil), c.capacity...) }

func contains(sorted []int32, r int32) bool {
	for _, x := range sorted {
		if x == r {
			return true
		}
		if x > r {
			return false
		}
	}
	return false
}

func listed(req []Need, r int32) bool {
	for _, q := range req {
		if q.Res == r {
			return true
		}
	}
	return false
}
