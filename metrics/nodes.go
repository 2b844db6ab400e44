package metrics

import (
	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// nodeUsage integrates what ran on each node, from Started and Ended
// alone. Its memory is a few numbers per node and per node×resource.
type nodeUsage struct {
	R      int
	active []int32    // tasks running now, per node
	since  []sim.Time // when active last went from 0 to 1
	busy   []sim.Time // time with at least one task, exact
	tasks  []int64    // tasks started
	// use[n*R+r] is ∫ allocated dt in unit·seconds. It is a float: in
	// integer milli·microseconds one node-month of 1000 cpus overflows int64.
	use  []float64
	dynJ []float64 // energy above idle, J
	// dynW[n] is (max_w − idle_w) / capacity: watts per milli-unit of the
	// node's power resource powerRes[n]; 0 when it has none.
	dynW     []float64
	powerRes []int32
	// down[n] is true while node n is down, since downSince[n];
	// downFor[n] adds up the closed intervals. nil until a node event.
	down      []bool
	downSince []sim.Time
	downFor   []sim.Time

	power nodePower // power-down states (power.go)
}

// setDown records node n going down or up at now.
func (u *nodeUsage) setDown(now sim.Time, n int, down bool) {
	if u.down == nil {
		u.down = make([]bool, len(u.active))
		u.downSince = make([]sim.Time, len(u.active))
		u.downFor = make([]sim.Time, len(u.active))
	}
	if down {
		u.power.down(now, n)
	}
	switch {
	case down && !u.down[n]:
		u.downSince[n] = now
	case !down && u.down[n]:
		u.downFor[n] += now - u.downSince[n]
	}
	u.down[n] = down
}

// nodeDowntime is node n's time down up to end.
func (u *nodeUsage) nodeDowntime(n int, end sim.Time) sim.Time {
	if u.down == nil {
		return 0
	}
	d := u.downFor[n]
	if u.down[n] && end > u.downSince[n] {
		d += end - u.downSince[n]
	}
	return d
}

// downtime is the cluster's node time down up to end.
func (u *nodeUsage) downtime(end sim.Time) sim.Time {
	var d sim.Time
	for n := range u.active {
		d += u.nodeDowntime(n, end)
	}
	return d
}

func newNodeUsage(c *sim.Cluster) *nodeUsage {
	N, R := len(c.Nodes), len(c.Resources)
	u := &nodeUsage{
		R: R, active: make([]int32, N), since: make([]sim.Time, N), busy: make([]sim.Time, N),
		tasks: make([]int64, N), use: make([]float64, N*R), dynJ: make([]float64, N),
		dynW: make([]float64, N), powerRes: make([]int32, N),
	}
	for n, spec := range c.Nodes {
		r := c.PowerResource(n)
		u.powerRes[n] = int32(r)
		if r < 0 {
			continue
		}
		// Same formula as sim.Cluster.NodeWatts, split so a job's share
		// can be charged to it.
		if capa, ok := c.Capacity(n, r); ok && capa > 0 && spec.Power.MaxW > spec.Power.IdleW {
			u.dynW[n] = (spec.Power.MaxW - spec.Power.IdleW) / float64(capa)
		}
	}
	return u
}

// start records that a job's tasks began on nodes at start.
func (u *nodeUsage) start(nodes []int32, start sim.Time) {
	for _, n := range nodes {
		if u.active[n] == 0 {
			u.since[n] = start // after its nodes woke, under power-down
		}
		u.active[n]++
		u.tasks[n]++
	}
}

// charge adds what a job's tasks (each needs needs) used on nodes from
// start to until and returns the job's dynamic energy: Σ over tasks of
// (max_w − idle_w)·amount/capacity·duration. With stop, the tasks end at
// until; without, they are still running (end of the run).
func (u *nodeUsage) charge(nodes []int32, needs []sim.Need, start, until sim.Time, stop bool) float64 {
	dur := max(until-start, 0) // a run stopped while its nodes were waking ran nothing
	durS := dur.Seconds()
	var jobJ float64
	for _, n := range nodes {
		base := int(n) * u.R
		for _, q := range needs {
			// milli-units × microseconds / 1e9 = unit·seconds
			u.use[base+int(q.Res)] += float64(q.Amt) * float64(dur) / 1e9
			if q.Res == u.powerRes[n] && u.dynW[n] != 0 {
				e := u.dynW[n] * float64(q.Amt) * durS
				u.dynJ[n] += e
				jobJ += e
			}
		}
		if stop {
			u.active[n]--
			if u.active[n] == 0 {
				u.busy[n] += max(until-u.since[n], 0)
			}
		}
	}
	return jobJ
}

// finish closes the busy intervals of nodes still running tasks at end.
func (u *nodeUsage) finish(end sim.Time) {
	for n, a := range u.active {
		if a > 0 {
			u.busy[n] += max(end-u.since[n], 0)
			u.since[n] = end
		}
	}
}

// nodesSchema declares the nodes table for resources named res (snake
// case, in cluster order).
func nodesSchema(res []string) *arrow.Schema {
	f64 := arrow.PrimitiveTypes.Float64
	fields := []arrow.Field{
		{Name: "node_index", Type: arrow.PrimitiveTypes.Int64},
		{Name: "node", Type: arrow.BinaryTypes.String},
		{Name: "busy_s", Type: f64}, // time with at least one task
	}
	for _, r := range res {
		fields = append(fields, arrow.Field{Name: r + "_seconds", Type: f64}) // ∫ allocated units dt
	}
	for _, r := range res {
		// null when the node lacks the resource or the makespan is 0
		fields = append(fields, arrow.Field{Name: "utilization_" + r, Type: f64, Nullable: true})
	}
	fields = append(fields,
		arrow.Field{Name: "energy_j", Type: f64, Nullable: true}, // idle_w·makespan + dynamic part; null without a power model
		arrow.Field{Name: "idle_w", Type: f64},
		arrow.Field{Name: "max_w", Type: f64},
		arrow.Field{Name: "tasks_run", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "downtime_s", Type: f64}, // time down (failed), from node events
		arrow.Field{Name: "off_w", Type: f64},
		arrow.Field{Name: "asleep_s", Type: f64},    // time asleep (power-down)
		arrow.Field{Name: "switching_s", Type: f64}, // time switching off or on
		arrow.Field{Name: "switch_offs", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "switch_ons", Type: arrow.PrimitiveTypes.Int64},
	)
	return arrow.NewSchema(fields, nil)
}

// writeNodes sends the nodes table's one record, a row per node in index
// order, over a run of length makespan. The counters are final: the run
// is over.
func (u *nodeUsage) writeNodes(tb *table, c *sim.Cluster, res []string, makespan, end sim.Time) error {
	m := makespan.Seconds()
	return tb.send(func(rb *array.RecordBuilder) {
		b := builders{rb}
		idx, name, busy := b.i64("node_index"), b.str("node"), b.f64("busy_s")
		use := make([]*array.Float64Builder, u.R)
		util := make([]*array.Float64Builder, u.R)
		for r, s := range res {
			use[r], util[r] = b.f64(s+"_seconds"), b.f64("utilization_"+s)
		}
		energy, idle, maxW, tasks := b.f64("energy_j"), b.f64("idle_w"), b.f64("max_w"), b.i64("tasks_run")
		downtime := b.f64("downtime_s")
		offW, asleepS, switchingS := b.f64("off_w"), b.f64("asleep_s"), b.f64("switching_s")
		offs, ons := b.i64("switch_offs"), b.i64("switch_ons")
		p := &u.power
		powered := c.HasPowerModel()
		for n, spec := range c.Nodes {
			idx.Append(int64(n))
			name.Append(spec.Name)
			busy.Append(u.busy[n].Seconds())
			for r := 0; r < u.R; r++ {
				v := u.use[n*u.R+r]
				use[r].Append(v)
				if capa, ok := c.Capacity(n, r); ok && capa > 0 && m > 0 {
					util[r].Append(v / (capa.Float() * m))
				} else {
					util[r].AppendNull()
				}
			}
			// A node draws nothing while down (failed), OffW asleep, a
			// switch's W while switching, idle_w + dynamic otherwise.
			pm := spec.Power
			down := min(u.nodeDowntime(n, end).Seconds(), m)
			asleep := p.time(n, sim.PowerAsleep, end).Seconds()
			swOff, swOn := p.time(n, sim.PowerSwitchingOff, end).Seconds(), p.time(n, sim.PowerSwitchingOn, end).Seconds()
			on := max(m-down-asleep-swOff-swOn, 0)
			if powered {
				energy.Append(pm.IdleW*on + u.dynJ[n] + pm.OffW*asleep + pm.SwitchOff.W*swOff + pm.SwitchOn.W*swOn)
			} else {
				energy.AppendNull() // no power model: unknown, not 0
			}
			idle.Append(pm.IdleW)
			maxW.Append(pm.MaxW)
			tasks.Append(u.tasks[n])
			downtime.Append(down)
			offW.Append(pm.OffW)
			asleepS.Append(asleep)
			switchingS.Append(swOff + swOn)
			if p.state != nil {
				offs.Append(p.offs[n])
				ons.Append(p.ons[n])
			} else {
				offs.Append(0)
				ons.Append(0)
			}
		}
	})
}

// newNodesTable opens the nodes file.
func newNodesTable(dir, format string, res []string, mem memory.Allocator) (*table, error) {
	return newTable(dir, "nodes", format, nodesSchema(res), mem)
}
