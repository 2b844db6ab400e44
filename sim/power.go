package sim

// powerModel tracks the cluster's draw exactly. Nodes with the same power
// model and capacity form a class; the engine keeps each class's total use
// of its power resource as an integer, so the draw is recomputed from exact
// sums instead of drifting through many float additions.
type powerModel struct {
	classOf []int32 // node → class
	classes []powerClass
	total   []Amount // total capacity per resource
}

type powerClass struct {
	idle, max float64
	res       int32  // resource driving utilization, -1 when none
	capacity  Amount // per node capacity of res
	nodes     int
	down      int    // nodes of the class that are down
	used      Amount // sum over the class's nodes of res in use
}

func newPowerModel(c *Cluster) *powerModel {
	p := &powerModel{classOf: make([]int32, len(c.Nodes)), total: make([]Amount, len(c.Resources))}
	for r := range c.Resources {
		p.total[r] = c.TotalCapacity(r)
	}
	type key struct {
		idle, max float64
		res       int32
		capacity  Amount
	}
	index := map[key]int32{}
	for n, spec := range c.Nodes {
		res := int32(c.PowerResource(n))
		var capa Amount
		if res >= 0 {
			if a, ok := c.Capacity(n, int(res)); ok {
				capa = a
			}
		}
		k := key{spec.Power.IdleW, spec.Power.MaxW, res, capa}
		ci, ok := index[k]
		if !ok {
			ci = int32(len(p.classes))
			index[k] = ci
			p.classes = append(p.classes, powerClass{idle: k.idle, max: k.max, res: res, capacity: capa})
		}
		p.classes[ci].nodes++
		p.classOf[n] = ci
	}
	return p
}

// changed records that one task with request req started (sign +1) or
// ended (sign −1) on node n.
func (p *powerModel) changed(n int, req []Need, sign Amount) {
	cl := &p.classes[p.classOf[n]]
	for _, q := range req {
		if q.Res == cl.res {
			cl.used += sign * q.Amt
		}
	}
}

// setDown switches node n off (a failed node draws nothing) or back on.
// Down nodes are counted per class, so the draw stays an exact sum.
func (p *powerModel) setDown(n int, down bool) {
	if down {
		p.classes[p.classOf[n]].down++
	} else {
		p.classes[p.classOf[n]].down--
	}
}

// watts is the cluster's draw now.
func (p *powerModel) watts() float64 {
	var w float64
	for _, cl := range p.classes {
		w += float64(cl.nodes-cl.down) * cl.idle
		if cl.capacity > 0 && cl.max > cl.idle {
			w += (cl.max - cl.idle) * float64(cl.used) / float64(cl.capacity)
		}
	}
	return w
}

// NodeWatts returns node n's draw when it uses used of its power resource.
func (c *Cluster) NodeWatts(n int, used Amount) float64 {
	spec := c.Nodes[n].Power
	r := c.PowerResource(n)
	if r < 0 {
		return spec.IdleW
	}
	capa, ok := c.Capacity(n, r)
	if !ok || capa == 0 {
		return spec.IdleW
	}
	return spec.IdleW + (spec.MaxW-spec.IdleW)*float64(used)/float64(capa)
}

// PowerResource returns the index of the resource driving node n's power:
// the node's own choice, else cpu, else the first resource; -1 when the
// cluster has no resources.
func (c *Cluster) PowerResource(n int) int {
	if res := c.Nodes[n].Power.Resource; res != "" {
		return int(c.resIndex[res])
	}
	if i, ok := c.resIndex["cpu"]; ok {
		return int(i)
	}
	if len(c.Resources) > 0 {
		return 0
	}
	return -1
}
