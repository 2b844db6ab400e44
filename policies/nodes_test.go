package policies

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// placements records where and when each job started.
type placements struct {
	nopObserver
	got []string
}

func (p *placements) Started(now sim.Time, j *sim.JobRun) {
	p.got = append(p.got, fmt.Sprintf("%s@%s%v", j.Job.ID, now, j.Nodes))
}

// TestNodeLevelReservations checks reservations on specific nodes, first
// fit in time, lowest-numbered nodes, on four one-cpu nodes:
//
//	A (2 nodes, 10 s) and B (1 node, 100 s) start at 0 on n0 n1 and n2.
//	C (3 nodes, 10 s) arrives at 1: only n3 is free; A frees n0 n1 at 10, so
//	  C is reserved at 10 on n0 n1 n3 (n2 is busy until 100).
//	D (1 node, 5 s) arrives at 2: it ends at 7, before C's reservation on
//	  n3, so backfilling starts it on n3 at 2.
//	E (1 node, 20 s) arrives at 3: it would hold n3 past 10 and there is no
//	  other node, so it waits for C to end at 20 and takes n0.
//
// Without backfilling D waits behind C; at 10 C takes n0 n1 n3, and D and E
// start at 20 on n0 and n1.
func TestNodeLevelReservations(t *testing.T) {
	var nodes []sim.NodeSpec
	for i := 0; i < 4; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	jobs := func() []*sim.Job {
		mk := func(id string, submit, run sim.Time, tasks int) *sim.Job {
			return &sim.Job{ID: id, Submit: submit * sim.Second, Runtime: run * sim.Second, Walltime: run * sim.Second,
				Tasks: tasks, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}}
		}
		return []*sim.Job{mk("A", 0, 10, 2), mk("B", 0, 100, 1), mk("C", 1, 10, 3), mk("D", 2, 5, 1), mk("E", 3, 20, 1)}
	}
	want := map[Backfill]string{
		NoBackfill:   "A@0[0 1] B@0[2] C@10[0 1 3] D@20[0] E@20[1]",
		EASY:         "A@0[0 1] B@0[2] D@2[3] C@10[0 1 3] E@20[0]",
		Conservative: "A@0[0 1] B@0[2] D@2[3] C@10[0 1 3] E@20[0]",
	}
	for bf, w := range want {
		t.Run(string(bf), func(t *testing.T) {
			s, _ := NewBatch(bf)
			rec := &placements{}
			chk := sim.NewChecker(c)
			if err := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs()}, s, sim.Config{KillAtWalltime: true}, rec, chk).Run(); err != nil {
				t.Fatal(err)
			}
			if err := chk.Err(); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(rec.got, " "); got != w {
				t.Errorf("got  %s\nwant %s", got, w)
			}
		})
	}
}

// TestEASYShadowMatchesSearch: EASY's shadow time, computed incrementally
// from the running jobs' ends, equals a plain search on the same state, on
// a random stream of jobs (a cross-check of the two).
func TestEASYShadowMatchesSearch(t *testing.T) {
	c := poolCluster(t, 64)
	src := newSynthetic(3000, 64)
	chk := &shadowCheck{easy: easy{pl: firstFitPlacer{}}, t: t}
	e := sim.NewEngine(c, src, chk, sim.Config{KillAtWalltime: true})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if chk.compared < 100 {
		t.Fatalf("only %d shadows compared", chk.compared)
	}
}

// shadowCheck runs EASY and, at every pass with a blocked head, compares
// its shadow with plainShadow.
type shadowCheck struct {
	easy
	t        *testing.T
	compared int
}

// plainShadow is the earliest time at which head fits once the running
// jobs end at their expected ends: now or such an end, the first at which
// the nodes' free amounts plus those of the jobs ended by then hold all its
// tasks.
func plainShadow(c *sim.Context, head *sim.JobRun) (sim.Time, bool) {
	now := c.Now()
	ends := []sim.Time{now}
	for _, j := range c.Running() {
		ends = append(ends, j.ExpectedEnd(now))
	}
	slices.Sort(ends)
	R := c.Cluster().NumResources()
	for _, t := range ends {
		free := slices.Clone(c.FreeVector())
		for _, j := range c.Running() {
			if j.ExpectedEnd(now) > t {
				continue
			}
			for _, n := range j.Nodes {
				for _, q := range j.Needs() {
					free[int(n)*R+int(q.Res)] += q.Amt
				}
			}
		}
		fit := 0
		for n := range c.Cluster().Nodes {
			fit += sim.TasksFittingIn(free, R, n, head.Needs(), head.Job.Tasks)
		}
		if fit >= head.Job.Tasks {
			return t, true
		}
	}
	return 0, false
}

func (s *shadowCheck) Schedule(c *sim.Context) error {
	q := c.Queue()
	if len(q) > 0 && firstFit(c, q[0], nil, nil, nil) == nil {
		head := q[0]
		for _, j := range c.Ended() {
			s.ends.Remove(j)
		}
		var fresh headReservation
		shadow := fresh.compute(c, &s.ends, head)
		t, ok := plainShadow(c, head)
		if !ok || t != shadow {
			s.t.Fatalf("at %s: EASY shadow %s, plain search %s (ok %v)", c.Now(), shadow, t, ok)
		}
		s.compared++
		// Undo the bookkeeping so the real pass sees the same state.
		for _, j := range c.Ended() {
			s.ends.Insert(j)
		}
	}
	return s.easy.Schedule(c)
}
