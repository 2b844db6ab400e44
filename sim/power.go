package sim

import (
	"errors"
	"fmt"
	"math"
)

// PowerModel gives a node's draw in watts. A node that is on draws
// IdleW + (MaxW − IdleW) · utilization of Resource; with power-down
// (Config.PowerDown) it may also be asleep, drawing OffW, or switching off
// or on, drawing the switch's W for its Time (powerdown.go). A failed node
// draws nothing.
type PowerModel struct {
	IdleW    float64
	MaxW     float64
	Resource string // resource whose utilization drives power; "" means the cluster's first
	// OffW is the draw while asleep (Batsim's sleep power state, SimGrid's
	// wattage_off).
	OffW float64
	// SwitchOff and SwitchOn are the transitions into and out of sleep.
	// Zero values make them instant and free.
	SwitchOff, SwitchOn PowerSwitch
}

// PowerSwitch is one power transition: it lasts Time and draws W all along,
// so it costs W · Time joules.
type PowerSwitch struct {
	Time Time
	W    float64
}

func (p PowerModel) validate() error {
	finite := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }
	if !finite(p.IdleW) || !finite(p.MaxW) || p.MaxW < p.IdleW {
		return fmt.Errorf("need 0 ≤ idle_w ≤ max_w, got %s and %s", FormatNumber(p.IdleW), FormatNumber(p.MaxW))
	}
	if !finite(p.OffW) {
		return fmt.Errorf("off_w must be a number of watts ≥ 0, got %s", FormatNumber(p.OffW))
	}
	for _, s := range []struct {
		name string
		sw   PowerSwitch
	}{{"switch_off", p.SwitchOff}, {"switch_on", p.SwitchOn}} {
		if s.sw.Time < 0 || !finite(s.sw.W) {
			return fmt.Errorf("%s: need a time ≥ 0 and watts ≥ 0, got %s s and %s W", s.name, s.sw.Time, FormatNumber(s.sw.W))
		}
		if s.sw.Time == 0 && s.sw.W > 0 {
			return errors.New(s.name + ": an instant switch cannot draw power (give it a duration)")
		}
	}
	return nil
}

// powerModel tracks the cluster's draw exactly. Nodes with the same power
// model and capacity form a class; the engine keeps each class's total use
// of its power resource as an integer, and counts its nodes in each power
// state, so the draw is recomputed from exact sums instead of drifting
// through many float additions.
type powerModel struct {
	classOf []int32 // node → class
	classes []powerClass
	total   []Amount // total capacity per resource
	// nodeUsed[n] is the use of n's power resource by jobs whose run has
	// begun; it joins its class's used while n is on.
	nodeUsed []Amount
	state    []PowerState // nil until power-down is enabled
}

type powerClass struct {
	model    PowerModel
	res      int32  // resource driving utilization, -1 when none
	capacity Amount // per node capacity of res
	nodes    int
	down     int    // nodes of the class that are down
	used     Amount // sum over the class's nodes that are on of res in use
	// in counts the class's nodes (not down) in each state but on.
	in [numPowerStates]int
}

func newPowerModel(c *Cluster) *powerModel {
	p := &powerModel{classOf: make([]int32, len(c.Nodes)), total: make([]Amount, len(c.Resources)), nodeUsed: make([]Amount, len(c.Nodes))}
	for r := range c.Resources {
		p.total[r] = c.TotalCapacity(r)
	}
	type key struct {
		model    PowerModel
		res      int32
		capacity Amount
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
		k := key{spec.Power, res, capa}
		ci, ok := index[k]
		if !ok {
			ci = int32(len(p.classes))
			index[k] = ci
			p.classes = append(p.classes, powerClass{model: k.model, res: res, capacity: capa})
		}
		p.classes[ci].nodes++
		p.classOf[n] = ci
	}
	return p
}

// on reports whether node n is in the on state (or power-down is off).
func (p *powerModel) on(n int) bool { return p.state == nil || p.state[n] == PowerOn }

// changed records that one task with request req began (sign +1) or
// stopped (sign −1) running on node n.
func (p *powerModel) changed(n int, req []Need, sign Amount) {
	cl := &p.classes[p.classOf[n]]
	for _, q := range req {
		if q.Res == cl.res {
			p.nodeUsed[n] += sign * q.Amt
			if p.on(n) {
				cl.used += sign * q.Amt
			}
		}
	}
}

// setState moves node n (not down) to power state s.
func (p *powerModel) setState(n int, s PowerState) {
	cl := &p.classes[p.classOf[n]]
	old := p.state[n]
	if old == s {
		return
	}
	if old == PowerOn {
		cl.used -= p.nodeUsed[n]
	} else {
		cl.in[old]--
	}
	if s == PowerOn {
		cl.used += p.nodeUsed[n]
	} else {
		cl.in[s]++
	}
	p.state[n] = s
}

// setDown switches node n off (a failed node draws nothing) or back on.
// Down nodes are counted per class, so the draw stays an exact sum. A node
// goes down from the on state (powerdown.go resets it first).
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
	for i := range p.classes {
		cl := &p.classes[i]
		m := &cl.model
		on := cl.nodes - cl.down - cl.in[PowerSwitchingOff] - cl.in[PowerAsleep] - cl.in[PowerSwitchingOn]
		w += float64(on) * m.IdleW
		if cl.capacity > 0 && m.MaxW > m.IdleW {
			w += (m.MaxW - m.IdleW) * float64(cl.used) / float64(cl.capacity)
		}
		if p.state != nil {
			w += float64(cl.in[PowerSwitchingOff])*m.SwitchOff.W + float64(cl.in[PowerAsleep])*m.OffW +
				float64(cl.in[PowerSwitchingOn])*m.SwitchOn.W
		}
	}
	return w
}

// HasPowerModel says whether some node draws power. Without one the
// cluster's energy is unknown, not zero: the tables leave it null.
func (c *Cluster) HasPowerModel() bool {
	for _, n := range c.Nodes {
		p := n.Power
		if p.IdleW > 0 || p.MaxW > 0 || p.OffW > 0 || p.SwitchOff.W > 0 || p.SwitchOn.W > 0 {
			return true
		}
	}
	return false
}

// NodeWatts returns node n's draw when it is on and uses used of its power
// resource.
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
