package lattice

import (
	"github.com/schedsim/schedsim/sim"
)

// Scheduler is GreedyTopologyAwareBackfill, a sim.Scheduler:
//
//  1. sort the queued jobs by Score(j), best first;
//  2. for each job in that order, find the smallest set of available nodes
//     in the fewest topology groups, in one conformance group (preferred;
//     required under profiles such as sensitive), within the power budget
//     (selector, powerBudget), and start it there;
//  3. the first job that cannot start holds a reservation on specific
//     nodes at the earliest expected end of running jobs after which it
//     fits (reserve); every later job may still start now if it ends
//     before that time, or leaves the reserved nodes and the power the
//     reservation needs, so it never delays a higher-scored reservation
//     (EASY backfilling with the seed's score order instead of FCFS);
//  4. with Config.Preemption, that first blocked job may instead stop
//     running jobs of strictly lower priority class and start at once
//     (preempt.go); only when no such set frees room does it reserve.
//
// The seed's quorum (steps 3–4: proposals committed or rejected) is one
// process here: every proposal commits.
type Scheduler struct {
	cfg  Config
	cl   *sim.Cluster
	sel  *selector
	fs   *FairShare
	pw   *powerBudget
	info map[*sim.JobRun]*jobInfo
	vcs  *vclusters  // nil: vClusters off
	auto *autoscaler // nil: no services

	// per pass
	ranked  []Ranked
	caps    map[string]*capacities
	topoCap []int
	confCap []int
	failed  map[failKey]int // smallest task count found not to fit
	buf     []int32
	res     reservation
	// preemption scratch
	victims  []victim
	projFree []sim.Amount
	take     []bool

	passes      int64
	variation   FactorVariation
	preemptions int64
	reclaims    int64
}

// failKey is a request with a selection mode: within one pass free
// capacity only shrinks, so a request that did not fit with k tasks does
// not fit with more.
type failKey struct {
	key     string
	crosses bool
	require bool
	vc      string // with vClusters: whose nodes, and
	borrow  bool   // whether borrowed ones count
}

// Passes counts the scheduling passes run (cycles, in cycle mode).
func (s *Scheduler) Passes() int64 { return s.passes }

// FairShare exposes the usage tracker (tests, reports).
func (s *Scheduler) FairShare() *FairShare { return s.fs }

// Schedule implements sim.Scheduler.
func (s *Scheduler) Schedule(c *sim.Context) error {
	now := c.Now()
	s.fs.Advance(now)
	for _, j := range c.Ended() {
		s.stopped(now, j)
	}
	if s.auto != nil {
		// Scale changes go before the queue, at every decision instant
		// (cycle mode too: the scaling loop is not the scheduling cycle).
		s.auto.step(c)
	}
	if cy := s.cfg.Cycle; cy > 0 && now%cy != 0 {
		// Between ticks only the books move; the next tick decides.
		if queued(c) {
			c.WakeAt((now/cy + 1) * cy)
		}
		return nil
	}
	if err := s.pass(c); err != nil {
		return err
	}
	// Wake for the next tick only while something can change by then:
	// with nothing running, only an arrival or a node event (which call
	// Schedule anyway) can let a queued job start.
	if cy := s.cfg.Cycle; cy > 0 && queued(c) && len(c.Running()) > 0 {
		c.WakeAt(now + cy)
	}
	return nil
}

func queued(c *sim.Context) bool {
	for _, j := range c.Queue() {
		if j.Status == sim.Queued {
			return true
		}
	}
	return false
}

// pass is one scheduling cycle.
func (s *Scheduler) pass(c *sim.Context) error {
	s.passes++
	if s.caps == nil {
		s.caps = map[string]*capacities{}
		s.failed = map[failKey]int{}
	}
	clear(s.failed)
	s.res.active = false
	now := c.Now()
	for _, r := range s.rank(c) {
		j := r.Job
		if j.Status != sim.Queued {
			continue
		}
		p := s.cfg.Profiles.For(j.Job.Queue)
		crosses := s.res.active && now+j.EstimatedRuntime() > s.res.shadow
		nodes, why := s.tryNow(c, j, r.info, p.RequireConformance, crosses, false)
		if nodes == nil && s.vcs != nil {
			nodes, why = s.tryNow(c, j, r.info, p.RequireConformance, crosses, true)
		}
		if nodes != nil {
			if err := s.start(c, j, nodes, crosses); err != nil {
				return err
			}
			continue
		}
		if s.res.active {
			continue // a backfill candidate that does not fit
		}
		if s.cfg.Preemption || s.vcs != nil {
			started, err := s.preemptFor(c, j, r.info, p.RequireConformance)
			if err != nil {
				return err
			}
			if started {
				continue
			}
		}
		// The best-scored job that cannot start: reserve, or reject it
		// when even the emptied cluster cannot take it.
		shadow, never := s.reserve(c, j, r.info.vc, p.RequireConformance, why)
		if shadow == sim.Forever && s.auto != nil && s.auto.holdsAny() && s.fitsAfterScaleDown(c, j, p.RequireConformance) {
			continue // it waits for a service to give nodes back
		}
		if shadow == sim.Forever {
			if !c.NodeEventsEnabled() { // down nodes may come back
				if err := c.Reject(j, "lattice: "+failureText[never]); err != nil {
					return err
				}
				delete(s.info, j)
			}
			continue
		}
		if s.cfg.NoBackfill {
			return nil
		}
	}
	return nil
}

// tryNow selects nodes for j from the free capacity now, or says why not;
// with vClusters, on its own and shared nodes, plus borrowable ones when
// borrow is set.
func (s *Scheduler) tryNow(c *sim.Context, j *sim.JobRun, in *jobInfo, require, crosses, borrow bool) ([]int32, failure) {
	k := j.Job.Tasks
	fk := failKey{key: in.key, crosses: crosses, require: require}
	if s.vcs != nil {
		fk.vc, fk.borrow = in.vc, borrow
	}
	if f, ok := s.failed[fk]; ok && k >= f {
		return nil, tooFewNodes
	}
	if !totalsAllow(c, j) {
		return nil, tooFewNodes
	}
	var limit func(n, fit int) int
	if crosses {
		limit = s.res.limit(s.cl, j)
	}
	visit := s.nowNodes(c, j.Needs())
	if s.vcs != nil {
		visit = s.vcs.filter(visit, in.vc, borrow, s.vcs.held)
	}
	if s.vcs != nil && borrow {
		s.sel.prefer = func(n int32) bool { return s.vcs.home[n] == "" || s.vcs.home[n] == in.vc }
		defer func() { s.sel.prefer = nil }()
	}
	nodes, why := s.sel.pick(j, c.FreeVector(), visit, limit, require, s.buf)
	if why != fitOK {
		if why == tooFewNodes {
			if f, ok := s.failed[fk]; !ok || k < f {
				s.failed[fk] = k
			}
		}
		return nil, why
	}
	s.buf = nodes
	if s.pw.enabled() {
		w := s.pw.adds(j, nodes)
		if !s.pw.fits(c.PowerW(), w) || (crosses && !s.pw.fits(s.res.powerAt, w)) {
			return nil, overPowerBudget
		}
	}
	return nodes, fitOK
}

// start starts j and books it: usage, power, and, for a job running past
// the reservation, what it takes from the reserved nodes and power.
func (s *Scheduler) start(c *sim.Context, j *sim.JobRun, nodes []int32, crosses bool) error {
	if err := c.Start(j, nodes); err != nil {
		return err
	}
	s.fs.Started(c, j)
	s.pw.started(j, nodes)
	if s.vcs != nil {
		s.vcs.started(c.Now(), j, nodes)
	}
	if crosses {
		s.res.take(s.cl, j, nodes, s.pw.draw[j])
	}
	delete(s.info, j)
	return nil
}

// stopped closes the books of a run that ended or was stopped.
func (s *Scheduler) stopped(now sim.Time, j *sim.JobRun) {
	s.fs.Stopped(j)
	s.pw.stopped(j)
	if s.vcs != nil {
		s.vcs.stopped(now, j)
	}
}

// totalsAllow is a quick necessary condition: the cluster's free totals
// cover the job's request.
func totalsAllow(c *sim.Context, j *sim.JobRun) bool {
	k := sim.Amount(j.Job.Tasks)
	for _, q := range j.Needs() {
		if q.Amt > 0 && c.Cluster().LeafLevel(int(q.Res)) && q.Amt*k > c.TotalFree(int(q.Res)) {
			return false
		}
	}
	return true
}

// nowNodes enumerates the nodes that may hold a task of req now: those
// with some of req's first positive leaf resource free (the engine's
// bitset skips full and offline nodes), else every online node.
func (s *Scheduler) nowNodes(c *sim.Context, req []sim.Need) func(func(n int) bool) {
	for _, q := range req {
		if q.Amt > 0 && s.cl.LeafLevel(int(q.Res)) {
			set := c.AvailableNodes(int(q.Res))
			return s.unheld(func(visit func(n int) bool) { sim.ForEachNode(set, visit) })
		}
	}
	return s.unheld(func(visit func(n int) bool) {
		for n := range s.cl.Nodes {
			if c.NodeOnline(n) && !visit(n) {
				return
			}
		}
	})
}

// unheld leaves the nodes services hold out of a node enumeration.
func (s *Scheduler) unheld(nodes func(func(n int) bool)) func(func(n int) bool) {
	if s.auto == nil {
		return nodes
	}
	return func(visit func(n int) bool) {
		nodes(func(n int) bool { return s.auto.held(n) || visit(n) })
	}
}
