package lattice

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// homes gives node i the vcluster attribute homes[i] ("" for none).
func homes(h ...string) func(i int) map[string]string {
	return func(i int) map[string]string {
		if h[i] == "" {
			return nil
		}
		return map[string]string{"vcluster": h[i]}
	}
}

// inQueue sets a job's queue, which names its vCluster.
func inQueue(j *sim.Job, q string) *sim.Job { j.Queue = q; return j }

// Borrow and reclaim on four one-cpu nodes, n0 n1 homed in vCluster a and
// n2 n3 in b. B (queue b, 3 tasks, 100 s, checkpoint 10 s, restore 2 s)
// at 0: b's two nodes are not enough, so it borrows one idle node of a,
// its own nodes first: n2, n3 and n0 (holder of n0: b from 0). A (queue
// a, 2 tasks, 10 s) at 25 fits on a's nodes only once the borrower is
// gone: B is preempted (reclaim, whatever its class), keeping 20 s and
// losing 5; n0 goes back to a at 25 and A starts there and on n1. B is
// queued again; at 35 A ends, B borrows n0 again (holder b from 35) and
// runs its 80 s left plus the 2 s restore: it ends at 117, and n0
// returns home then.
func TestBorrowAndReclaim(t *testing.T) {
	cl := nodesCluster(t, 4, homes("a", "a", "b", "b"))
	b := inQueue(classed("B", 0, 100, 3, 0, 10, 2), "b")
	a := inQueue(classed("A", 25, 10, 2, 0, 0, 0), "a")
	cfg := Config{VClusters: VClusterConfig{Enabled: true, BorrowPenalty: 0.5}}
	got, s := runLog(t, cl, cfg, b, a)
	sameLines(t, "borrow and reclaim", got, []string{
		"start B @0 on [2 3 0]",
		"requeue B (preemption) lost 5 saved 20 @25",
		"start A @25 on [0 1]",
		"completed A @35 overhead 0",
		"start B @35 on [2 3 0]",
		"completed B @117 overhead 2",
	})
	want := []Ownership{{secs(0), 0, "b"}, {secs(25), 0, "a"}, {secs(35), 0, "b"}, {secs(117), 0, "a"}}
	if !reflect.DeepEqual(s.Ownership(), want) {
		t.Errorf("ownership %v, want %v", s.Ownership(), want)
	}
	if s.Reclaims() != 1 || s.Preemptions() != 1 {
		t.Errorf("reclaims %d, preemptions %d, want 1, 1", s.Reclaims(), s.Preemptions())
	}
	// Without vClusters node homes mean nothing: B takes n0–n2 and A
	// waits for it.
	got, s = runLog(t, cl, Config{}, inQueue(classed("B", 0, 100, 3, 0, 10, 2), "b"), inQueue(classed("A", 25, 10, 2, 0, 0, 0), "a"))
	sameLines(t, "no vclusters", got, []string{
		"start B @0 on [0 1 2]", "completed B @100 overhead 0", "start A @100 on [0 1]", "completed A @110 overhead 0"})
	if s.Ownership() != nil {
		t.Errorf("ownership without vClusters: %v", s.Ownership())
	}
}

// A vCluster's own job is never reclaimed on its home nodes, and a job
// does not borrow a node another vCluster's jobs are using: nodes n0 (a)
// and n1 (b); A1 (queue a) runs on n0 from 0 to 100. B1 (queue b, 2
// tasks) at 5 can take only n1 (n0 is busy with a's job, not lendable):
// it waits for A1's end, then borrows n0 at 100. A2 (queue a, 1 task) at
// 110 reclaims n0.
func TestNoReclaimFromHome(t *testing.T) {
	cl := nodesCluster(t, 2, homes("a", "b"))
	cfg := Config{VClusters: VClusterConfig{Enabled: true}}
	got, s := runLog(t, cl, cfg, inQueue(classed("A1", 0, 100, 1, 0, 0, 0), "a"),
		inQueue(classed("B1", 5, 50, 2, 9, 0, 0), "b"), inQueue(classed("A2", 110, 10, 1, 0, 0, 0), "a"))
	sameLines(t, "home", got, []string{
		"start A1 @0 on [0]",
		"completed A1 @100 overhead 0",
		"start B1 @100 on [1 0]",
		"requeue B1 (preemption) lost 10 saved 0 @110",
		"start A2 @110 on [0]",
		"completed A2 @120 overhead 0",
		"start B1 @120 on [1 0]",
		"completed B1 @170 overhead 0",
	})
	want := []Ownership{{secs(100), 0, "b"}, {secs(110), 0, "a"}, {secs(120), 0, "b"}, {secs(170), 0, "a"}}
	if !reflect.DeepEqual(s.Ownership(), want) {
		t.Errorf("ownership %v, want %v", s.Ownership(), want)
	}
}

// The borrow penalty in the score. n0 is a's, n1 is b's and busy with X
// (queue b) until 100. At 10, P (queue b, priority 10) and Q (queue a,
// priority 0) each want one node; only n0 is free. Under the default
// profile P scores w₁·1 = 0.2 above Q (every other factor is equal: same
// wait, both tenants unserved, same request). With a penalty of 0.5 P
// must borrow and scores 0.3 below Q: Q takes its own n0 and P borrows
// it when Q ends at 30. With no penalty P borrows n0 first and Q, blocked, reclaims
// it at once: a wasted preemption.
func TestBorrowPenalty(t *testing.T) {
	cl := nodesCluster(t, 2, homes("a", "b"))
	jobs := func() []*sim.Job {
		p := inQueue(classed("P", 10, 20, 1, 10, 0, 0), "b")
		return []*sim.Job{inQueue(classed("X", 0, 100, 1, 0, 0, 0), "b"), p, inQueue(classed("Q", 10, 20, 1, 0, 0, 0), "a")}
	}
	probe := &borrowProbe{at: secs(10)}
	s, err := New(cl, Config{VClusters: VClusterConfig{Enabled: true, BorrowPenalty: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	probe.Scheduler = s
	out := runWith(t, cl, probe, jobs()...)
	if fmt.Sprint(out["Q"].start, out["Q"].nodes, out["P"].start, out["P"].nodes) != "10 [0] 30 [0]" {
		t.Errorf("penalty 0.5: Q %v, P %v; want Q at 10 on n0, P at 30 on n0", out["Q"], out["P"])
	}
	if s.Preemptions() != 0 {
		t.Errorf("penalty 0.5: %d preemptions", s.Preemptions())
	}
	if got := fmt.Sprint(probe.order); got != "[Q:false P:true]" {
		t.Errorf("ranking at 10: %s, want Q first, P borrowing", got)
	}
	near(t, "score(Q) − score(P)", probe.scores["Q"]-probe.scores["P"], 0.5-0.2)
	got, s := runLog(t, cl, Config{VClusters: VClusterConfig{Enabled: true}}, jobs()...)
	sameLines(t, "no penalty", got[1:4], []string{
		"start P @10 on [0]", "requeue P (preemption) lost 0 saved 0 @10", "start Q @10 on [0]"})
	if s.Reclaims() != 1 {
		t.Errorf("no penalty: reclaims %d, want 1", s.Reclaims())
	}
}

// borrowProbe records the ranking of the pass at one time.
type borrowProbe struct {
	*Scheduler
	at     sim.Time
	order  []string
	scores map[string]float64
}

func (p *borrowProbe) Schedule(c *sim.Context) error {
	err := p.Scheduler.Schedule(c)
	if c.Now() == p.at && p.order == nil {
		p.scores = map[string]float64{}
		for _, r := range p.Ranking() {
			p.order = append(p.order, fmt.Sprintf("%s:%v", r.Job.Job.ID, r.Borrows))
			p.scores[r.Job.Job.ID] = r.Score
		}
	}
	return err
}

// A seeded random mix (priorities, vClusters, checkpoints, multi-task
// jobs, racks) with preemption and borrowing on, under the checker: every
// run ends as its restarts allow, every node is handed back home at the
// end, and the ownership log alternates between borrowers and homes.
func TestPreemptBorrowRandom(t *testing.T) {
	vcs := []string{"a", "b", "c"}
	cl := nodesCluster(t, 12, func(i int) map[string]string {
		return map[string]string{"vcluster": vcs[i%3], "rack": fmt.Sprintf("r%d", i/4)}
	})
	x := uint64(7)
	rnd := func(n int) int { x = x*6364136223846793005 + 1442695040888963407; return int(x>>33) % n }
	var jobs []*sim.Job
	for i := 0; i < 300; i++ {
		j := classed(fmt.Sprintf("j%d", i), int64(i*7), int64(5+rnd(200)), 1+rnd(6), rnd(11), int64(rnd(3)*10), int64(rnd(5)))
		j.Queue = vcs[rnd(3)]
		jobs = append(jobs, j)
	}
	_, s := runLog(t, cl, Config{Preemption: true, VClusters: VClusterConfig{Enabled: true, BorrowPenalty: 0.05}}, jobs...)
	t.Logf("preemptions %d, reclaims %d, ownership changes %d", s.Preemptions(), s.Reclaims(), len(s.Ownership()))
	if s.Preemptions() == 0 || s.Reclaims() == 0 {
		t.Errorf("preemptions %d, reclaims %d: the mix should exercise both", s.Preemptions(), s.Reclaims())
	}
	last := map[int]string{}
	for _, o := range s.Ownership() {
		home := s.vcs.home[o.Node]
		prev, ok := last[o.Node]
		if !ok {
			prev = home
		}
		if (o.Holder == home) == (prev == home) {
			t.Fatalf("node %d: holder %s after %s (home %s)", o.Node, o.Holder, prev, home)
		}
		last[o.Node] = o.Holder
	}
	for n := range cl.Nodes {
		if s.vcs.held[n] != 0 || s.vcs.holder[n] != s.vcs.home[n] {
			t.Errorf("node %d at the end: %d tasks held by %s", n, s.vcs.held[n], s.vcs.holder[n])
		}
	}
}
