package policies

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// refPool is conservative backfilling on one node of many cpus (the
// count-based pool model) written the plain way: the amount in use
// recomputed from every running job and reservation, and every queued job
// searched in full from now at every job end.
type refPool struct {
	rule  Reservations
	delay sim.Time
	cpus  int
	res   map[*sim.JobRun]*refSlot // its nodes: node 0 for each task
}

func (s *refPool) planned(j *sim.JobRun) sim.Time {
	return max(j.EstimatedRuntime()+s.delay, 1)
}

// firstFit is j's earliest start with the other plans as they are; a
// window can only start now or where something ends, and the amount in use
// only rises where a reservation starts.
func (s *refPool) firstFit(c *sim.Context, j *sim.JobRun) *refSlot {
	now := c.Now()
	type hold struct{ from, to sim.Time }
	var holds []hold
	for _, r := range c.Running() {
		end := max(r.Start+s.planned(r), now+1)
		for range r.Job.Tasks {
			holds = append(holds, hold{now, end})
		}
	}
	for q, r := range s.res {
		if q != j {
			for range q.Job.Tasks {
				holds = append(holds, hold{r.start, r.end})
			}
		}
	}
	inUse := func(t sim.Time) int {
		n := 0
		for _, h := range holds {
			if h.from <= t && t < h.to {
				n++
			}
		}
		return n
	}
	starts := []sim.Time{now}
	for _, h := range holds {
		starts = append(starts, h.to)
	}
	slices.Sort(starts)
	d := s.planned(j)
	for _, t := range slices.Compact(starts) {
		fits := inUse(t)+j.Job.Tasks <= s.cpus
		for _, h := range holds {
			if fits && h.from > t && h.from < t+d {
				fits = inUse(h.from)+j.Job.Tasks <= s.cpus
			}
		}
		if fits {
			return &refSlot{start: t, end: t + d, nodes: make([]int32, j.Job.Tasks)}
		}
	}
	panic("no window: every plan ends")
}

func (s *refPool) Schedule(c *sim.Context) error {
	// In queue order, as the incremental scheduler goes: under Keep the
	// jobs holding a reservation move first, then new jobs get theirs;
	// under Repick both in one pass.
	if len(c.Ended()) > 0 {
		for _, j := range c.Queue() {
			if _, has := s.res[j]; has || s.rule == Repick {
				s.res[j] = s.firstFit(c, j)
			}
		}
	}
	for _, j := range c.Queue() {
		if _, has := s.res[j]; !has {
			s.res[j] = s.firstFit(c, j)
		}
	}
	return startDue(c, s.res)
}

// TestConservativePoolMatchesReference replays random workloads on one
// node of 16 cpus, under both rules, with and without a planning delay,
// through the incremental scheduler (its count-based searches) and the
// plain one: every job must start at the same time.
func TestConservativePoolMatchesReference(t *testing.T) {
	const cpus = 16
	pool := func(t *testing.T) *sim.Cluster {
		c, err := sim.NewCluster([]sim.NodeSpec{{Name: "pool", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(cpus)}}}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for seed := uint64(1); seed <= 8; seed++ {
		for _, rule := range []Reservations{Keep, Repick} {
			for _, delay := range []sim.Time{0, 5 * sim.Second} {
				t.Run(fmt.Sprintf("seed%d-%s-%s", seed, rule, delay), func(t *testing.T) {
					got := replayConservative(t, pool(t), randomWholeNodeJobs(seed, 150, cpus), Options{Reservations: rule, PlanningDelay: delay})
					ref := &refPool{rule: rule, delay: delay, cpus: cpus, res: map[*sim.JobRun]*refSlot{}}
					want := &reservationLog{}
					if err := sim.NewEngine(pool(t), &sim.SliceSource{Jobs: randomWholeNodeJobs(seed, 150, cpus)}, ref, sim.Config{KillAtWalltime: true}, want).Run(); err != nil {
						t.Fatal(err)
					}
					sameStarts(t, got, want)
				})
			}
		}
	}
}
