package policies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// sharedNodesJobs is a random stream for nodes that hold several tasks:
// tasks of 1–8 cpus and 1–16 GiB, several per job, runtimes and walltimes
// on a coarse grid so that many jobs are expected to end at the same time
// (ties with the shadow), most ending before their walltime.
func sharedNodesJobs(n int, seed uint64) []*sim.Job {
	rng := rand.New(rand.NewPCG(seed, 7))
	var jobs []*sim.Job
	now := sim.Time(0)
	for i := range n {
		now += sim.Time(rng.IntN(4)) * 5 * sim.Second
		wall := sim.Time(1+rng.IntN(12)) * 50 * sim.Second
		run := wall
		if rng.IntN(3) > 0 {
			run = sim.Time(1+rng.IntN(int(wall/(10*sim.Second)))) * 10 * sim.Second
		}
		jobs = append(jobs, &sim.Job{
			ID: fmt.Sprint(i), Submit: now, Runtime: run, Walltime: wall, Tasks: 1 + rng.IntN(10),
			Request: []sim.Quantity{
				{Resource: "cpu", Amount: sim.Units(int64(1 + rng.IntN(8)))},
				{Resource: "mem", Amount: sim.Units(int64(1 + rng.IntN(16)))},
			},
		})
	}
	return jobs
}

func sharedNodesCluster(t *testing.T) *sim.Cluster {
	var nodes []sim.NodeSpec
	for i := range 16 {
		nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: []sim.Quantity{
			{Resource: "cpu", Amount: sim.Units(8)}, {Resource: "mem", Amount: sim.Units(32)}}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEASYKeptReservation replays random jobs on nodes shared by several
// tasks and checks after every pass that the reservation EASY keeps for the
// next pass is what computing it afresh gives (and so is what the head holds
// of the free amounts now), and that the replay starts
// every job when and where an EASY that recomputes at every pass does.
func TestEASYKeptReservation(t *testing.T) {
	for _, order := range []Order{FCFS, SJF} {
		for seed := range uint64(3) {
			c := sharedNodesCluster(t)
			run := func(s sim.Scheduler) string {
				rec := &placements{}
				chk := sim.NewChecker(c)
				cfg := sim.Config{KillAtWalltime: true, Less: order}
				if err := sim.NewEngine(c, &sim.SliceSource{Jobs: sharedNodesJobs(3000, seed)}, s, cfg, rec, chk).Run(); err != nil {
					t.Fatal(err)
				}
				if err := chk.Err(); err != nil {
					t.Fatal(err)
				}
				return strings.Join(rec.got, " ")
			}
			kept := &keptCheck{easy: easy{pl: firstFitPlacer{}}, t: t}
			got := run(kept)
			want := run(&recomputing{easy{pl: firstFitPlacer{}}})
			if got != want {
				t.Fatalf("seed %d: the starts differ from an EASY that recomputes at every pass", seed)
			}
			if kept.compared < 500 || kept.kept < 100 {
				t.Fatalf("seed %d: only %d reservations compared, %d of them kept", seed, kept.compared, kept.kept)
			}
		}
	}
}

// recomputing is EASY that forgets its reservation at every pass.
type recomputing struct{ easy }

func (s *recomputing) Schedule(c *sim.Context) error {
	s.resv.head = nil
	return s.easy.Schedule(c)
}

// keptCheck runs EASY and compares the reservation it keeps after each pass
// with a fresh one.
type keptCheck struct {
	easy
	t              *testing.T
	compared, kept int
}

func (s *keptCheck) Schedule(c *sim.Context) error {
	held := s.resv.head
	if err := s.easy.Schedule(c); err != nil {
		return err
	}
	h := &s.resv
	if h.head == nil || !h.keepable {
		return nil
	}
	var fresh headReservation
	fresh.compute(c, &s.ends, h.head)
	s.compared++
	if held == h.head {
		s.kept++
	}
	at := fmt.Sprintf("at %s, head %s", c.Now(), h.head.Job.ID)
	if fresh.shadow != h.shadow || fresh.last != h.last {
		s.t.Fatalf("%s: kept shadow %s (last node %d), fresh %s (%d)", at, h.shadow, h.last, fresh.shadow, fresh.last)
	}
	if s.hold.valid(h) {
		var sum headHold
		sum.sum(c, h)
		if !slices.Equal(s.hold.total, sum.total) {
			s.t.Fatalf("%s: kept hold %v, summed %v", at, s.hold.total, sum.total)
		}
	}
	if h.shadow == sim.Forever {
		return nil
	}
	if fresh.before != h.before {
		s.t.Fatalf("%s: kept count before the shadow %d, fresh %d", at, h.before, fresh.before)
	}
	R := c.Cluster().NumResources()
	free := c.FreeVector()
	zero := make([]sim.Amount, R)
	for n := range int32(len(c.Cluster().Nodes)) {
		for _, v := range []struct {
			name        string
			got, want   *nodeVectors
			absentValue []sim.Amount
		}{
			{"at the shadow", &h.atShadow, &fresh.atShadow, free[int(n)*R : int(n)*R+R]},
			{"ending at the shadow", &h.lastEnds, &fresh.lastEnds, zero},
			{"extra", &h.extra, &fresh.extra, nil},
		} {
			g, gok := v.got.get(n)
			w, wok := v.want.get(n)
			if !gok {
				g = v.absentValue
			}
			if !wok {
				w = v.absentValue
			}
			if !slices.Equal(g, w) {
				s.t.Fatalf("%s: node %d %s: kept %v, fresh %v", at, n, v.name, g, w)
			}
		}
		ex, reserved := h.extra.get(n)
		exhausted := reserved && !slices.ContainsFunc(ex, func(a sim.Amount) bool { return a > 0 })
		if got := h.exhausted[n/64]&(1<<(n%64)) != 0; got != exhausted {
			s.t.Fatalf("%s: node %d marked exhausted %v, extra %v", at, n, got, ex)
		}
	}
	return nil
}
