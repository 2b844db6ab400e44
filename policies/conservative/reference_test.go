package conservative

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// reference is conservative backfilling written the plain way, to check
// the scheduler against: every window checked node by node against every
// running job and reservation, every queued job searched in full at every
// job end. Nodes hold several tasks and requests ask for several
// resources.
type reference struct {
	repick bool
	delay  sim.Time
	res    map[*sim.JobRun]*refSlot
}

// refSlot is a reservation: [start, end) on nodes, one entry per task.
type refSlot struct {
	start, end sim.Time
	nodes      []int32
}

// refHold is what one task holds on its node over [from, to).
type refHold struct {
	from, to sim.Time
	needs    []sim.Need
}

func (s *reference) planned(j *sim.JobRun) sim.Time {
	return max(j.EstimatedRuntime()+s.delay, 1)
}

// holds lists, by node, every task the plan holds, but skip's.
func (s *reference) holds(c *sim.Context, skip *sim.JobRun) [][]refHold {
	now := c.Now()
	held := make([][]refHold, len(c.Cluster().Nodes))
	for _, j := range c.Running() {
		end := j.Start + s.planned(j)
		if end <= now {
			end = now + 1 // expected to end any moment
		}
		for _, n := range j.Nodes {
			held[n] = append(held[n], refHold{now, end, j.Needs()})
		}
	}
	for j, r := range s.res {
		if j == skip {
			continue
		}
		for _, n := range r.nodes {
			held[n] = append(held[n], refHold{r.start, r.end, j.Needs()})
		}
	}
	return held
}

// tasksFitting is how many tasks of req fit throughout [t, t+d) on a node
// of capacity (one amount per resource) holding held, at most limit: the
// least over the instants in the window where a hold starts (and t itself).
func tasksFitting(capacity []sim.Amount, held []refHold, req []sim.Need, t, d sim.Time, limit int) int {
	R := len(capacity)
	instants := []sim.Time{t}
	for _, h := range held {
		if h.from > t && h.from < t+d {
			instants = append(instants, h.from)
		}
	}
	for _, x := range instants {
		free := slices.Clone(capacity)
		for _, h := range held {
			if h.from <= x && x < h.to {
				for _, q := range h.needs {
					free[q.Res] -= q.Amt
				}
			}
		}
		limit = min(limit, sim.TasksFittingIn(free, R, 0, req, limit))
	}
	return limit
}

// firstFit is j's earliest window and the lowest-numbered nodes that hold
// its tasks throughout it; a window can only start now or where a hold
// ends.
func (s *reference) firstFit(c *sim.Context, j *sim.JobRun) *refSlot {
	held := s.holds(c, j)
	starts := []sim.Time{c.Now()}
	for _, h := range held {
		for _, b := range h {
			starts = append(starts, b.to)
		}
	}
	slices.Sort(starts)
	d := s.planned(j)
	R := c.Cluster().NumResources()
	capacity := c.Cluster().CapacityVector()
	for _, t := range slices.Compact(starts) {
		var nodes []int32
		for n := range held {
			left := j.Job.Tasks - len(nodes)
			for range tasksFitting(capacity[n*R:n*R+R], held[n], j.Needs(), t, d, left) {
				nodes = append(nodes, int32(n))
			}
		}
		if len(nodes) == j.Job.Tasks {
			return &refSlot{start: t, end: t + d, nodes: nodes}
		}
	}
	panic("no window: every plan ends")
}

// Schedule moves every queued job in queue order after jobs ended: under
// keep to its first fit if that starts earlier, under repick to its first
// fit, new jobs included; then new jobs get their first fit.
func (s *reference) Schedule(c *sim.Context) error {
	if len(c.Ended()) > 0 {
		for _, j := range c.Queue() {
			old, has := s.res[j]
			switch {
			case has:
				fit := s.firstFit(c, j)
				if s.repick || fit.start < old.start {
					s.res[j] = fit
				}
			case s.repick:
				s.res[j] = s.firstFit(c, j)
			}
		}
	}
	for _, j := range c.Queue() {
		if _, has := s.res[j]; !has {
			s.res[j] = s.firstFit(c, j)
		}
	}
	next := sim.Forever
	for _, j := range c.Queue() {
		r := s.res[j]
		if r.start > c.Now() {
			next = min(next, r.start)
			continue
		}
		delete(s.res, j)
		if err := c.Start(j, r.nodes); err != nil {
			return err
		}
	}
	c.WakeAt(next)
	return nil
}
