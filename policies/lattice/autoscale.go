package lattice

import (
	"math"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// Reactive scaling (seed: "Reactive Scaling"). A service holds whole
// nodes: it starts by asking for min_nodes at start_s and then follows
// its load. At every decision instant (each scheduling pass, each point
// of its metric, the end of a cooldown) the scaler reads the load per
// node (the metric divided by the nodes held, or as it is for per_node)
// and, outside a cooldown:
//
//   - above scale_up_above and below max_nodes, it asks for step_nodes
//     more (capped at max_nodes);
//   - below scale_down_below and above min_nodes, it gives step_nodes
//     back (capped at min_nodes) at once, the nodes it got last first,
//     unless the load on the nodes left would be above scale_up_above
//     (a total load would then scale straight back up: 90 on one node
//     with thresholds 50 and 80 is 45 on two, and 90 again on one).
//
// A request is an allocation change through the solver: it waits for
// that many wholly free online nodes (none of a running job's tasks, none
// held by another service) and takes them all at once, packed into the
// topology group where the service already has the most nodes, then the
// group with the most free nodes, then by node index. Requests are served
// before the queue in every pass (the quorum commits a service's change
// before the cycle's new allocations), but hold no reservation: while one
// waits, the queue may still start jobs on the free capacity. A waiting
// scale-up is withdrawn when the load falls back to the threshold or
// below. Each step (a grant or a release) starts a cooldown; a decision
// instant takes as many steps as the cooldown lets it (all of them with
// cooldown 0).
//
// Nodes a service holds are out of the solver's reach: no job starts,
// reserves or preempts onto them; a job that only the held nodes could
// take waits for a scale-down instead of being rejected. The engine does
// not see the holding (its utilisation and power count a held node as
// idle); the service tables do.
//
// What is recorded: the nodes of each service over time (ServiceNodes),
// every scale event (ScaleEvent), and per service the time spent above
// its scale-up threshold, split by why it did not scale: waiting for
// nodes, at max_nodes (together the time unable to scale) or in a
// cooldown (ServiceSummary).

// Scale actions of a ScaleEvent.
const (
	ScaleRequest  = "request"  // asked for nodes (the start, or a scale-up)
	ScaleUp       = "up"       // got them
	ScaleDown     = "down"     // gave nodes back
	ScaleWithdraw = "withdraw" // dropped a waiting scale-up: the load fell
	ScaleStop     = "stop"     // end_s: released every node
)

// ScaleEvent is one step of a service.
type ScaleEvent struct {
	At      sim.Time
	Service string
	Action  string
	From    int     // nodes held before
	To      int     // nodes held after (a request: the nodes it would hold)
	Load    float64 // the per-node load that decided it (before the step)
	Waited  sim.Time
	Nodes   []int32 // the nodes granted or released
}

// ServiceNodes is one change of a service's holding: from At on, it
// holds Nodes nodes and waits for Pending more.
type ServiceNodes struct {
	At      sim.Time
	Service string
	Nodes   int
	Pending int
}

// ServiceSummary is a service's account up to the end of the run.
type ServiceSummary struct {
	Service            string
	MinNodes, MaxNodes int
	NodeSeconds        float64 // Σ nodes held × time
	Above              sim.Time
	Waiting            sim.Time // above, a scale-up waiting for nodes
	AtMax              sim.Time // above, at max_nodes
	Cooling            sim.Time // above, in a cooldown
	Ups, Downs         int
	Withdrawn          int
}

// Unable is the time the service spent above its threshold unable to
// scale: waiting for nodes or at max_nodes.
func (s ServiceSummary) Unable() sim.Time { return s.Waiting + s.AtMax }

// service is one service's state.
type service struct {
	cfg       ServiceConfig
	started   bool
	stopped   bool
	nodes     []int32 // held, in grant order
	pending   int     // nodes asked for and not granted
	asked     sim.Time
	coolUntil sim.Time
	last      sim.Time // accounting is done up to here
	acct      ServiceSummary
}

// autoscaler is the scheduler's services.
type autoscaler struct {
	svcs     []*service
	holder   []int16 // per node: 1 + the index of the service holding it; 0 none
	topo     *grouping
	timeline []ServiceNodes
	events   []ScaleEvent
	cand     []int32 // scratch
	inGroup  []int   // scratch: per topology group
	freeIn   []int
}

func newAutoscaler(cl *sim.Cluster, cfgs []ServiceConfig, topo *grouping) *autoscaler {
	a := &autoscaler{holder: make([]int16, len(cl.Nodes)), topo: topo,
		inGroup: make([]int, topo.size()), freeIn: make([]int, topo.size())}
	for _, c := range cfgs {
		a.svcs = append(a.svcs, &service{cfg: c, acct: ServiceSummary{Service: c.Name, MinNodes: c.MinNodes, MaxNodes: c.MaxNodes}})
	}
	return a
}

// held says whether a service holds node n.
func (a *autoscaler) held(n int) bool { return a.holder[n] != 0 }

// holdsAny says whether any service holds a node now.
func (a *autoscaler) holdsAny() bool {
	for _, s := range a.svcs {
		if len(s.nodes) > 0 {
			return true
		}
	}
	return false
}

// load is the per-node load s decides on at now.
func (s *service) load(now sim.Time) float64 { return s.loadOn(now, len(s.nodes)) }

// loadOn is the per-node load at now on n nodes: +Inf for a positive
// total load on none.
func (s *service) loadOn(now sim.Time, n int) float64 {
	v := s.cfg.Metric.At(now)
	if s.cfg.PerNode {
		return v
	}
	if n == 0 {
		if v > 0 {
			return math.Inf(1)
		}
		return 0
	}
	return v / float64(n)
}

// downStep is how many nodes a scale-down gives back.
func (s *service) downStep() int { return min(s.cfg.Step, len(s.nodes)-s.cfg.MinNodes) }

// step runs every service's decisions at now and asks to be woken for
// the next point of a metric, the end of a cooldown, a start or an end.
func (a *autoscaler) step(c *sim.Context) {
	now := c.Now()
	for i, s := range a.svcs {
		a.account(s, now)
		a.decide(c, i, s)
		for _, t := range []sim.Time{s.cfg.Metric.Next(now), s.coolUntil, s.cfg.Start, s.cfg.End} {
			if t > now && !s.stopped {
				c.WakeAt(t)
			}
		}
	}
}

// account books [s.last, now) under the state decided at s.last, which
// held until now (every change of load or state is a decision instant).
func (a *autoscaler) account(s *service, now sim.Time) {
	if now <= s.last || !s.started || s.stopped {
		s.last = max(s.last, now)
		return
	}
	addInterval(s, &s.acct, now-s.last, s.last)
	s.last = now
}

// addInterval adds dt under s's current state, decided at t, to acct.
func addInterval(s *service, acct *ServiceSummary, dt, t sim.Time) {
	acct.NodeSeconds += float64(len(s.nodes)) * dt.Seconds()
	if s.load(t) <= s.cfg.UpAbove {
		return
	}
	acct.Above += dt
	switch {
	case s.pending > 0:
		acct.Waiting += dt
	case len(s.nodes) >= s.cfg.MaxNodes:
		acct.AtMax += dt
	case t < s.coolUntil:
		acct.Cooling += dt
	}
}

// decide takes every step s may take at now.
func (a *autoscaler) decide(c *sim.Context, idx int, s *service) {
	now := c.Now()
	if s.stopped || now < s.cfg.Start {
		return
	}
	if s.cfg.End > 0 && now >= s.cfg.End {
		a.release(now, idx, s, len(s.nodes), ScaleStop)
		s.pending, s.stopped = 0, true
		a.record(now, s)
		return
	}
	if !s.started {
		s.started, s.last = true, now
		if s.cfg.MinNodes > 0 {
			a.request(now, s, s.cfg.MinNodes)
		}
	}
	for range s.cfg.MaxNodes + 2 { // each pass of the loop takes a step or returns
		load := s.load(now)
		if s.pending > 0 {
			// The start's request stands whatever the load; a scale-up
			// lasts while the load calls for it.
			if len(s.nodes) >= s.cfg.MinNodes && load <= s.cfg.UpAbove {
				a.events = append(a.events, ScaleEvent{At: now, Service: s.cfg.Name, Action: ScaleWithdraw, From: len(s.nodes),
					To: len(s.nodes), Load: load, Waited: now - s.asked})
				s.acct.Withdrawn++
				s.pending = 0
				a.record(now, s)
				continue
			}
			if !a.grant(c, idx, s, load) {
				return
			}
			continue
		}
		if now < s.coolUntil {
			return
		}
		switch {
		case load > s.cfg.UpAbove && len(s.nodes) < s.cfg.MaxNodes:
			a.request(now, s, min(s.cfg.Step, s.cfg.MaxNodes-len(s.nodes)))
		case load < s.cfg.DownBelow && len(s.nodes) > s.cfg.MinNodes && s.loadOn(now, len(s.nodes)-s.downStep()) <= s.cfg.UpAbove:
			a.release(now, idx, s, s.downStep(), ScaleDown)
			s.acct.Downs++
			s.coolUntil = now + s.cfg.Cooldown
			a.record(now, s)
		default:
			return
		}
	}
}

// request asks for k more nodes.
func (a *autoscaler) request(now sim.Time, s *service, k int) {
	s.pending, s.asked = k, now
	a.events = append(a.events, ScaleEvent{At: now, Service: s.cfg.Name, Action: ScaleRequest, From: len(s.nodes),
		To: len(s.nodes) + k, Load: s.load(now)})
	a.record(now, s)
}

// grant gives s its pending nodes if that many are wholly free now.
func (a *autoscaler) grant(c *sim.Context, idx int, s *service, load float64) bool {
	cl := c.Cluster()
	a.cand = a.cand[:0]
	clear(a.inGroup)
	clear(a.freeIn)
	for _, n := range s.nodes {
		a.inGroup[a.topo.of[n]]++
	}
	for n := range cl.Nodes {
		if !a.held(n) && c.NodeOnline(n) && whollyFree(c, n) {
			a.cand = append(a.cand, int32(n))
			a.freeIn[a.topo.of[n]]++
		}
	}
	if len(a.cand) < s.pending {
		return false
	}
	sort.SliceStable(a.cand, func(x, y int) bool {
		gx, gy := a.topo.of[a.cand[x]], a.topo.of[a.cand[y]]
		if a.inGroup[gx] != a.inGroup[gy] {
			return a.inGroup[gx] > a.inGroup[gy]
		}
		if a.freeIn[gx] != a.freeIn[gy] {
			return a.freeIn[gx] > a.freeIn[gy]
		}
		return a.cand[x] < a.cand[y]
	})
	got := append([]int32(nil), a.cand[:s.pending]...)
	from := len(s.nodes)
	for _, n := range got {
		a.holder[n] = int16(idx + 1)
	}
	s.nodes = append(s.nodes, got...)
	a.events = append(a.events, ScaleEvent{At: c.Now(), Service: s.cfg.Name, Action: ScaleUp, From: from, To: len(s.nodes),
		Load: load, Waited: c.Now() - s.asked, Nodes: got})
	s.acct.Ups++
	s.pending = 0
	s.coolUntil = c.Now() + s.cfg.Cooldown
	a.record(c.Now(), s)
	return true
}

// release gives back s's last k nodes.
func (a *autoscaler) release(now sim.Time, idx int, s *service, k int, action string) {
	if k == 0 && action != ScaleStop {
		return
	}
	from := len(s.nodes)
	load := s.load(now)
	gone := append([]int32(nil), s.nodes[from-k:]...)
	for _, n := range gone {
		a.holder[n] = 0
	}
	s.nodes = s.nodes[:from-k]
	a.events = append(a.events, ScaleEvent{At: now, Service: s.cfg.Name, Action: action, From: from, To: len(s.nodes), Load: load, Nodes: gone})
}

// record notes s's holding from now on (one row per instant: a later
// change at the same instant replaces it).
func (a *autoscaler) record(now sim.Time, s *service) {
	row := ServiceNodes{At: now, Service: s.cfg.Name, Nodes: len(s.nodes), Pending: s.pending}
	for i := len(a.timeline) - 1; i >= 0 && a.timeline[i].At == now; i-- {
		if a.timeline[i].Service == s.cfg.Name {
			a.timeline[i] = row
			return
		}
	}
	a.timeline = append(a.timeline, row)
}

// whollyFree says whether node n runs nothing: every resource is free.
func whollyFree(c *sim.Context, n int) bool {
	cl := c.Cluster()
	for r := range cl.Resources {
		capa, ok := cl.Capacity(n, r)
		if !ok {
			continue
		}
		if free, _ := c.Free(n, r); free != capa {
			return false
		}
	}
	return true
}

// ServicesOn says whether the scheduler runs services.
func (s *Scheduler) ServicesOn() bool { return s.auto != nil }

// ServiceTimeline returns every change of a service's holding, in time
// order (services in the order configured within an instant).
func (s *Scheduler) ServiceTimeline() []ServiceNodes {
	if s.auto == nil {
		return nil
	}
	return s.auto.timeline
}

// ScaleEvents returns every scale event, in time order.
func (s *Scheduler) ScaleEvents() []ScaleEvent {
	if s.auto == nil {
		return nil
	}
	return s.auto.events
}

// ServiceSummaries returns each service's account up to end (the run's
// end), in the order configured.
func (s *Scheduler) ServiceSummaries(end sim.Time) []ServiceSummary {
	if s.auto == nil {
		return nil
	}
	out := make([]ServiceSummary, len(s.auto.svcs))
	for i, sv := range s.auto.svcs {
		out[i] = sv.acct
		if sv.started && !sv.stopped && end > sv.last {
			addInterval(sv, &out[i], end-sv.last, sv.last)
		}
	}
	return out
}
