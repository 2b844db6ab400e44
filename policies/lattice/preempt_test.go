package lattice

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// eventLog records starts, ends and requeues in order, as lines.
type eventLog struct{ lines []string }

func (l *eventLog) add(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}
func (l *eventLog) Submitted(sim.Time, *sim.JobRun) {}
func (l *eventLog) Started(now sim.Time, j *sim.JobRun) {
	l.add("start %s @%s on %v", j.Job.ID, now, j.Nodes)
}
func (l *eventLog) Ended(now sim.Time, j *sim.JobRun) {
	l.add("%s %s @%s overhead %s", j.Status, j.Job.ID, now, j.Overhead)
}
func (l *eventLog) Rejected(now sim.Time, j *sim.JobRun)  { l.add("reject %s @%s", j.Job.ID, now) }
func (l *eventLog) Stepped(sim.Time, *sim.Context)        {}
func (l *eventLog) Finished(sim.Time, *sim.Context)       {}
func (l *eventLog) NodeChanged(sim.Time, int, bool, bool) {}
func (l *eventLog) Requeued(now sim.Time, j *sim.JobRun, lost sim.Time) {
	l.add("requeue %s (%s) lost %s saved %s @%s", j.Job.ID, j.Requeued, lost, j.Saved, now)
}

// runLog plays jobs under the lattice scheduler with cfg and the checker
// (which verifies every end against start + remaining work + restore) and
// returns the event lines and the scheduler.
func runLog(t *testing.T, cl *sim.Cluster, cfg Config, jobs ...*sim.Job) ([]string, *Scheduler) {
	t.Helper()
	s, err := New(cl, cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := &eventLog{}
	chk := sim.NewChecker(cl)
	e := sim.NewEngine(cl, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true}, l, chk)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	return l.lines, s
}

// classed is job with a priority and a checkpoint interval and cost (s).
func classed(id string, submit, runtime int64, tasks, priority int, every, cost int64) *sim.Job {
	j := job(id, submit, runtime, tasks)
	j.Priority = priority
	j.CheckpointInterval, j.CheckpointCost = secs(every), secs(cost)
	return j
}

func sameLines(t *testing.T, name string, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got\n  %s\nwant\n  %s", name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// Two one-cpu nodes. L (class 1) runs on both from 0, checkpointing every
// 10 s with a 3 s restore. H (class 5, one task, 10 s) arrives at 25: L is
// preempted, keeping 20 s (two checkpoints) and losing 5; H starts at 25
// in the same pass and ends at 35; L resumes at 35 (not before: it needs
// both nodes) with 80 s left plus the 3 s restore, ending at 118.
func TestPreemptLowerClass(t *testing.T) {
	cl := nodesCluster(t, 2, nil)
	jobs := func(lowPrio int) []*sim.Job {
		return []*sim.Job{classed("L", 0, 100, 2, lowPrio, 10, 3), classed("H", 25, 10, 1, 5, 0, 0)}
	}
	got, s := runLog(t, cl, Config{Preemption: true}, jobs(1)...)
	sameLines(t, "class 1 under class 5", got, []string{
		"start L @0 on [0 1]",
		"requeue L (preemption) lost 5 saved 20 @25",
		"start H @25 on [0]",
		"completed H @35 overhead 0",
		"start L @35 on [0 1]",
		"completed L @118 overhead 3",
	})
	if s.Preemptions() != 1 {
		t.Errorf("preemptions %d, want 1", s.Preemptions())
	}
	// Preemption moves down tiers only: an equal or a higher class is
	// never stopped, and H waits for L's end at 100.
	for _, lowPrio := range []int{5, 7, 12} { // 12 clamps to class 10
		got, s := runLog(t, cl, Config{Preemption: true}, jobs(lowPrio)...)
		sameLines(t, fmt.Sprintf("L priority %d", lowPrio), got, []string{
			"start L @0 on [0 1]", "completed L @100 overhead 0", "start H @100 on [0]", "completed H @110 overhead 0"})
		if s.Preemptions() != 0 {
			t.Errorf("L priority %d: %d preemptions", lowPrio, s.Preemptions())
		}
	}
	// Off by default: the same jobs run as without the option.
	got, _ = runLog(t, cl, Config{}, jobs(1)...)
	sameLines(t, "preemption off", got, []string{
		"start L @0 on [0 1]", "completed L @100 overhead 0", "start H @100 on [0]", "completed H @110 overhead 0"})
}

// Victim choice on four one-cpu nodes, all jobs started at 0 for 100 s,
// H (class 5, 10 s) arriving at 25:
//
//	A class 1, checkpoint 10 s → loses 5 task-s   (Seq 0)
//	B class 2, checkpoint 10 s → loses 5          (Seq 1)
//	C class 1, no checkpoint   → loses 25         (Seq 2)
//	D class 1, checkpoint 10 s → loses 5          (Seq 3)
//
// Cost order: A (class 1, 5, Seq 0), D (class 1, 5, Seq 3), C (class 1,
// 25), B (class 2). H with one task stops A only (B loses as little but
// is a higher class; D ties with A and has the later Seq); with three
// tasks A, D and C, and B runs on.
func TestPreemptCheapestVictims(t *testing.T) {
	cl := nodesCluster(t, 4, nil)
	jobs := func(tasks int) []*sim.Job {
		return []*sim.Job{classed("A", 0, 100, 1, 1, 10, 0), classed("B", 0, 100, 1, 2, 10, 0),
			classed("C", 0, 100, 1, 1, 0, 0), classed("D", 0, 100, 1, 1, 10, 0), classed("H", 25, 10, tasks, 5, 0, 0)}
	}
	requeues := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if strings.HasPrefix(l, "requeue") {
				out = append(out, l)
			}
		}
		return out
	}
	got, _ := runLog(t, cl, Config{Preemption: true}, jobs(1)...)
	sameLines(t, "one task", requeues(got), []string{"requeue A (preemption) lost 5 saved 20 @25"})
	got, s := runLog(t, cl, Config{Preemption: true}, jobs(3)...)
	sameLines(t, "three tasks", requeues(got), []string{
		"requeue A (preemption) lost 5 saved 20 @25",
		"requeue D (preemption) lost 5 saved 20 @25",
		"requeue C (preemption) lost 25 saved 0 @25",
	})
	if s.Preemptions() != 3 {
		t.Errorf("preemptions %d, want 3", s.Preemptions())
	}
}

// The cheapest set, not the cheapest prefix. Three one-cpu nodes: A
// (class 1, one task) and B (class 1, two tasks) run from 0 with 10 s
// checkpoints; at 25 A would lose 5 task-s and B 10, so A comes first.
// H (class 5) needs two nodes: A alone frees one, A and B free three, and
// B alone frees two: only B is stopped, and A runs on to 100.
func TestPreemptDropsUnneededVictims(t *testing.T) {
	cl := nodesCluster(t, 3, nil)
	got, _ := runLog(t, cl, Config{Preemption: true},
		classed("A", 0, 100, 1, 1, 10, 2), classed("B", 0, 100, 2, 1, 10, 2), classed("H", 25, 10, 2, 5, 0, 0))
	sameLines(t, "H needs 2", got, []string{
		"start A @0 on [0]",
		"start B @0 on [1 2]",
		"requeue B (preemption) lost 5 saved 20 @25", // the engine counts time, not task-s
		"start H @25 on [1 2]",
		"completed H @35 overhead 0",
		"start B @35 on [1 2]",
		"completed A @100 overhead 0",
		"completed B @117 overhead 2",
	})
}

// A chain down the tiers: M (class 3) preempts L (class 1); then H (class
// 8) preempts M, never the other way round. One one-cpu node; no
// checkpoints, so every preemption loses the whole run.
func TestPreemptChainDownTiers(t *testing.T) {
	cl := nodesCluster(t, 1, nil)
	got, s := runLog(t, cl, Config{Preemption: true},
		classed("L", 0, 100, 1, 1, 0, 0), classed("M", 10, 50, 1, 3, 0, 0), classed("H", 20, 5, 1, 8, 0, 0))
	sameLines(t, "chain", got, []string{
		"start L @0 on [0]",
		"requeue L (preemption) lost 10 saved 0 @10",
		"start M @10 on [0]",
		"requeue M (preemption) lost 10 saved 0 @20",
		"start H @20 on [0]",
		"completed H @25 overhead 0",
		"start M @25 on [0]",
		"completed M @75 overhead 0",
		"start L @75 on [0]",
		"completed L @175 overhead 0",
	})
	if s.Preemptions() != 2 {
		t.Errorf("preemptions %d, want 2", s.Preemptions())
	}
}
