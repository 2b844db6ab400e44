package policies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// refConservative is conservative backfilling written the plain way, to
// check the incremental one against: one-cpu nodes, every window checked
// node by node against every running job and reservation, every queued
// job searched in full at every job end.
type refConservative struct {
	rule  Reservations
	delay sim.Time
	nodes int
	res   map[*sim.JobRun]*refSlot
}

type refSlot struct {
	start, end sim.Time
	nodes      []int32
}

func (s *refConservative) planned(j *sim.JobRun) sim.Time {
	return max(j.EstimatedRuntime()+s.delay, 1)
}

// busy lists every interval the plan holds on each node, but skip's.
func (s *refConservative) busy(c *sim.Context, skip *sim.JobRun) [][]refSlot {
	now := c.Now()
	held := make([][]refSlot, s.nodes)
	for _, j := range c.Running() {
		end := j.Start + s.planned(j)
		if end <= now {
			end = now + 1 // expected to end any moment
		}
		for _, n := range j.Nodes {
			held[n] = append(held[n], refSlot{start: now, end: end})
		}
	}
	for j, r := range s.res {
		if j == skip {
			continue
		}
		for _, n := range r.nodes {
			held[n] = append(held[n], *r)
		}
	}
	return held
}

// firstFit is j's earliest window and the lowest-numbered nodes free
// throughout it; a window can only start now or where something ends.
func (s *refConservative) firstFit(c *sim.Context, j *sim.JobRun) *refSlot {
	held := s.busy(c, j)
	starts := []sim.Time{c.Now()}
	for _, h := range held {
		for _, b := range h {
			starts = append(starts, b.end)
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	d := s.planned(j)
	for _, t := range starts {
		var nodes []int32
		for n := 0; n < s.nodes && len(nodes) < j.Job.Tasks; n++ {
			free := true
			for _, b := range held[n] {
				if b.start < t+d && b.end > t {
					free = false
					break
				}
			}
			if free {
				nodes = append(nodes, int32(n))
			}
		}
		if len(nodes) == j.Job.Tasks {
			return &refSlot{start: t, end: t + d, nodes: nodes}
		}
	}
	panic("no window: every plan ends")
}

func (s *refConservative) Schedule(c *sim.Context) error {
	if len(c.Ended()) > 0 {
		for _, j := range c.Queue() {
			old, has := s.res[j]
			switch {
			case has:
				fit := s.firstFit(c, j)
				if s.rule == Repick || fit.start < old.start {
					s.res[j] = fit
				}
			case s.rule == Repick:
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

// startDue starts the queued jobs whose reservation in res starts now,
// forgetting it, and wakes the scheduler at the next one.
func startDue(c *sim.Context, res map[*sim.JobRun]*refSlot) error {
	next := sim.Forever
	for _, j := range c.Queue() {
		r := res[j]
		if r.start > c.Now() {
			next = min(next, r.start)
			continue
		}
		delete(res, j)
		if err := c.Start(j, r.nodes); err != nil {
			return err
		}
	}
	c.WakeAt(next)
	return nil
}

// sameStarts fails t at the first start (job, time, nodes) where got and
// want differ.
func sameStarts(t *testing.T, got, want *reservationLog) {
	t.Helper()
	if g, w := strings.Join(got.starts, " "), strings.Join(want.starts, " "); g != w {
		for i := range min(len(got.starts), len(want.starts)) {
			if got.starts[i] != want.starts[i] {
				t.Fatalf("start %d differs: got %s, want %s", i, got.starts[i], want.starts[i])
			}
		}
		t.Fatalf("%d starts, want %d", len(got.starts), len(want.starts))
	}
}

// randomWholeNodeJobs is n jobs on `nodes` one-cpu nodes: bursts of
// arrivals, coarse times (so that ends and starts coincide), some jobs of
// zero runtime, most ending well before their walltime.
func randomWholeNodeJobs(seed uint64, n, nodes int) []*sim.Job {
	rng := rand.New(rand.NewPCG(seed, 7))
	var jobs []*sim.Job
	submit := sim.Time(0)
	for i := 0; i < n; i++ {
		if rng.IntN(3) == 0 {
			submit += sim.Time(rng.IntN(40))
		}
		wall := sim.Time(1 + rng.IntN(100))
		run := wall
		switch rng.IntN(4) {
		case 0:
			run = 0
		case 1, 2:
			run = sim.Time(rng.IntN(int(wall) + 1))
		}
		hosts := 1 + rng.IntN(nodes)
		if rng.IntN(2) == 0 {
			hosts = 1 + rng.IntN(2)
		}
		jobs = append(jobs, wholeNodeJob(fmt.Sprint(i), submit, run, wall, hosts))
	}
	return jobs
}

// TestConservativeMatchesReference replays random workloads under both
// rules, with and without a planning delay, through the incremental
// scheduler and the plain one: every job must start at the same time on
// the same nodes.
func TestConservativeMatchesReference(t *testing.T) {
	const nodes = 12
	for seed := uint64(1); seed <= 8; seed++ {
		for _, rule := range []Reservations{Keep, Repick} {
			for _, delay := range []sim.Time{0, 5 * sim.Second} {
				name := fmt.Sprintf("seed%d-%s-%s", seed, rule, delay)
				t.Run(name, func(t *testing.T) {
					indexFrom := defaultIndexFrom
					if seed%2 == 0 {
						// the summary index, which real clusters use from
						// hundreds of timelines on
						indexFrom = 2
					}
					c := oneCPUNodes(t, nodes)
					got := replayConservativeIndexed(t, c, randomWholeNodeJobs(seed, 120, nodes), Options{Reservations: rule, PlanningDelay: delay}, indexFrom)
					ref := &refConservative{rule: rule, delay: delay, nodes: nodes, res: map[*sim.JobRun]*refSlot{}}
					want := &reservationLog{}
					if err := sim.NewEngine(c, &sim.SliceSource{Jobs: randomWholeNodeJobs(seed, 120, nodes)}, ref, sim.Config{KillAtWalltime: true}, want).Run(); err != nil {
						t.Fatal(err)
					}
					sameStarts(t, got, want)
				})
			}
		}
	}
}
