package lattice

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// reservation is the best-scored blocked job's claim on specific nodes at
// its shadow time, as in EASY backfilling (policies/easy.go): the shadow
// is the first expected end of running jobs after which the selector finds
// it nodes within the power budget, and the reserved nodes are those it
// would choose then. Until the shadow nothing else ends (by the estimates),
// so free capacity only grows and "fits at the shadow" is "fits from the
// shadow on". A later job that ends before the shadow cannot delay it; one
// that runs past it may use on each reserved node only what the
// reservation leaves there, and only the power the reservation leaves
// under the budget.
type reservation struct {
	active   bool
	shadow   sim.Time
	proj     []sim.Amount // free capacity at the shadow, less the reservation on reserved nodes
	reserved []bool       // per node
	marked   []int32      // reserved nodes, to clear
	powerAt  float64      // draw at the shadow with the reservation's job running
	ends     []*sim.JobRun
	buf      []int32
}

// reserve computes j's reservation. It returns sim.Forever, and why, when
// j fits at no expected end, that is not even once every running job has
// ended; why starts as the reason j does not fit now. With vClusters the
// reservation is on j's vCluster's own and shared nodes (vc), or on any
// node when those can never hold it.
func (s *Scheduler) reserve(c *sim.Context, j *sim.JobRun, vc string, require bool, why failure) (sim.Time, failure) {
	if s.vcs != nil {
		if t, f := s.reserveOn(c, j, func(n int) bool { return s.vcs.home[n] == "" || s.vcs.home[n] == vc }, require, why); t != sim.Forever {
			return t, f
		}
	}
	return s.reserveOn(c, j, func(int) bool { return true }, require, why)
}

// reserveOn is reserve over the online nodes that allowed accepts.
func (s *Scheduler) reserveOn(c *sim.Context, j *sim.JobRun, allowed func(n int) bool, require bool, why failure) (sim.Time, failure) {
	rs := &s.res
	now := c.Now()
	cl := s.cl
	if len(rs.reserved) != len(cl.Nodes) {
		rs.reserved = make([]bool, len(cl.Nodes))
	}
	for _, n := range rs.marked {
		rs.reserved[n] = false
	}
	rs.marked = rs.marked[:0]
	rs.proj = append(rs.proj[:0], c.FreeVector()...)
	rs.ends = append(rs.ends[:0], c.Running()...)
	sort.Slice(rs.ends, func(a, b int) bool {
		ea, eb := rs.ends[a].ExpectedEnd(now), rs.ends[b].ExpectedEnd(now)
		if ea != eb {
			return ea < eb
		}
		return rs.ends[a].Seq < rs.ends[b].Seq
	})
	k := j.Job.Tasks
	req, immune := j.Needs(), j.Immune()
	online := func(visit func(n int) bool) {
		for n := range cl.Nodes {
			if c.NodeOnline(n) && allowed(n) && !visit(n) {
				return
			}
		}
	}
	online = s.unheld(online)
	total := 0
	online(func(n int) bool {
		total += cl.TasksFitting(rs.proj, n, req, immune, k)
		return true
	})
	power := c.PowerW()
	for i := 0; i < len(rs.ends); {
		t := rs.ends[i].ExpectedEnd(now)
		for ; i < len(rs.ends) && rs.ends[i].ExpectedEnd(now) == t; i++ {
			r := rs.ends[i]
			for _, n := range r.Nodes {
				before := cl.TasksFitting(rs.proj, int(n), req, immune, k)
				cl.Consume(rs.proj, int(n), r.Needs(), r.Immune(), -1)
				if c.NodeOnline(int(n)) && allowed(int(n)) && (s.auto == nil || !s.auto.held(int(n))) {
					total += cl.TasksFitting(rs.proj, int(n), req, immune, k) - before
				}
			}
			power -= s.pw.draw[r]
		}
		if total < k {
			continue
		}
		nodes, f := s.sel.pick(j, rs.proj, online, nil, require, rs.buf)
		if f != fitOK {
			why = f
			continue
		}
		rs.buf = nodes
		w := s.pw.adds(j, nodes)
		if !s.pw.fits(power, w) {
			why = overPowerBudget
			continue
		}
		for _, n := range nodes {
			cl.Consume(rs.proj, int(n), req, immune, 1)
			if !rs.reserved[n] {
				rs.reserved[n] = true
				rs.marked = append(rs.marked, n)
			}
		}
		rs.active, rs.shadow, rs.powerAt = true, t, power+w
		return t, fitOK
	}
	return sim.Forever, why
}

// limit caps the tasks of j that node n may take when j runs past the
// shadow: on a reserved node, what the reservation leaves there.
func (rs *reservation) limit(cl *sim.Cluster, j *sim.JobRun) func(n, fit int) int {
	return func(n, fit int) int {
		if !rs.reserved[n] {
			return fit
		}
		return min(fit, cl.TasksFitting(rs.proj, n, j.Needs(), j.Immune(), fit))
	}
}

// take books a job that started and runs past the shadow: its tasks on
// reserved nodes and its draw come out of what the reservation leaves.
func (rs *reservation) take(cl *sim.Cluster, j *sim.JobRun, nodes []int32, draw float64) {
	for _, n := range nodes {
		if rs.reserved[n] {
			cl.Consume(rs.proj, int(n), j.Needs(), j.Immune(), 1)
		}
	}
	rs.powerAt += draw
}

// fitsAfterScaleDown says whether j, which the nodes left to the queue
// can never hold, fits the online cluster emptied of every job and every
// service: then it waits for a service to give nodes back instead of
// being rejected. It holds no reservation (when a service scales down is
// not known), so the next blocked job may take the reservation.
func (s *Scheduler) fitsAfterScaleDown(c *sim.Context, j *sim.JobRun, require bool) bool {
	proj := append(s.projFree[:0], c.FreeVector()...)
	s.projFree = proj
	for _, r := range c.Running() {
		for _, n := range r.Nodes {
			s.cl.Consume(proj, int(n), r.Needs(), r.Immune(), -1)
		}
	}
	online := func(visit func(n int) bool) {
		for n := range s.cl.Nodes {
			if c.NodeOnline(n) && !visit(n) {
				return
			}
		}
	}
	nodes, f := s.sel.pick(j, proj, online, nil, require, s.buf)
	if f == fitOK {
		s.buf = nodes
	}
	return f == fitOK
}
