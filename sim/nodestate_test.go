package sim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// nodeLog is log plus node events and requeues.
type nodeLog struct{ log }

func (l *nodeLog) NodeChanged(now Time, n int, down, drained bool) {
	l.add(fmt.Sprintf("node %d down=%v drained=%v @%s", n, down, drained, now))
}
func (l *nodeLog) Requeued(now Time, j *JobRun, lost Time) {
	l.add(fmt.Sprintf("requeue %s (%s) lost %s saved %s @%s", j.Job.ID, j.Requeued, lost, j.Saved, now))
}

func runEvents(t *testing.T, c *Cluster, cfg Config, jobs ...*Job) []string {
	t.Helper()
	l := &nodeLog{}
	runChecked(t, c, firstFitFCFS{}, cfg, l, jobs...)
	return l.lines
}

func TestNodeEvents(t *testing.T) {
	cpu4 := Quantity{"cpu", Units(4)}
	ckpt := func(j *Job, every Time) *Job { j.CheckpointInterval = every * Second; return j }
	cases := []struct {
		name   string
		events []NodeEvent
		jobs   []*Job
		want   []string
	}{
		{
			// j1 runs on a from 0; a fails at 30. It checkpoints every 20 s,
			// so 20 s are saved and 10 lost; it restarts at once on b and
			// runs the 80 s left: it ends at 110. a recovers at 50.
			name: "fail, restart from checkpoint",
			events: []NodeEvent{{At: 30 * Second, Node: "a", Kind: NodeFail},
				{At: 50 * Second, Node: "a", Kind: NodeRecover}},
			jobs: []*Job{ckpt(job("j1", 0, 100, -1, 1, cpu4), 20)},
			want: []string{"start j1 @0", "requeue j1 (relocation) lost 10 saved 20 @30", "node 0 down=true drained=false @30",
				"start j1 @30", "node 0 down=false drained=false @50", "completed j1 @110", "finished @110"},
		},
		{
			// Without checkpoints all 30 s are lost; b is busy with j2
			// until 60, so j1 restarts on a when it recovers at 40 and
			// runs 100 s from zero.
			name: "fail, restart from zero, wait for recovery",
			events: []NodeEvent{{At: 30 * Second, Node: "a", Kind: NodeFail},
				{At: 40 * Second, Node: "a", Kind: NodeRecover}},
			jobs: []*Job{job("j1", 0, 100, -1, 1, cpu4), job("j2", 0, 60, -1, 1, cpu4)},
			want: []string{"start j1 @0", "start j2 @0", "requeue j1 (relocation) lost 30 saved 0 @30",
				"node 0 down=true drained=false @30", "node 0 down=false drained=false @40", "start j1 @40",
				"completed j2 @60", "completed j1 @140", "finished @140"},
		},
		{
			// A drain without deadline lets j1 finish on a; j2, arriving
			// while a is drained, goes to b.
			name:   "drain lets jobs finish",
			events: []NodeEvent{{At: 10 * Second, Node: "a", Kind: NodeDrain}},
			jobs:   []*Job{job("j1", 0, 50, -1, 1, cpu4), job("j2", 20, 10, -1, 1, cpu4)},
			want: []string{"start j1 @0", "node 0 down=false drained=true @10", "start j2 @20", "completed j2 @30",
				"completed j1 @50", "finished @50"},
		},
		{
			// A drain with a deadline at 20 moves j1 (evacuation) to b,
			// keeping its 10 s of checkpointed work.
			name:   "drain deadline evacuates",
			events: []NodeEvent{{At: 10 * Second, Node: "a", Kind: NodeDrain, Deadline: 25 * Second}},
			jobs:   []*Job{ckpt(job("j1", 0, 50, -1, 1, cpu4), 10)},
			want: []string{"start j1 @0", "node 0 down=false drained=true @10", "requeue j1 (evacuation) lost 5 saved 20 @25",
				"start j1 @25", "completed j1 @55", "finished @55"},
		},
		{
			// An undrain before the deadline cancels it.
			name: "undrain cancels the deadline",
			events: []NodeEvent{{At: 10 * Second, Node: "a", Kind: NodeDrain, Deadline: 25 * Second},
				{At: 15 * Second, Node: "a", Kind: NodeUndrain}},
			jobs: []*Job{job("j1", 0, 50, -1, 1, cpu4)},
			want: []string{"start j1 @0", "node 0 down=false drained=true @10", "node 0 down=false drained=false @15",
				"completed j1 @50", "finished @50"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runEvents(t, twoNodes(t), Config{NodeEvents: tc.events}, tc.jobs...)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestNodeEventUnknownNode(t *testing.T) {
	e := NewEngine(twoNodes(t), &SliceSource{}, firstFitFCFS{}, Config{NodeEvents: []NodeEvent{{At: 1, Node: "zz", Kind: NodeFail}}})
	if err := e.Run(); err == nil || !strings.Contains(err.Error(), `no node named "zz"`) {
		t.Fatalf("got %v", err)
	}
}

// TestFailureModel replays many jobs under random failures: every job
// completes (none is lost), the checker holds, the run ends although the
// failure model never runs out of events, and two runs agree.
func TestFailureModel(t *testing.T) {
	once := func() []string {
		var jobs []*Job
		for i := 0; i < 300; i++ {
			j := job(fmt.Sprint("j", i), Time(i*7), Time(20+i%50), -1, 1+i%2, Quantity{"cpu", Units(int64(1 + i%3))})
			if i%3 == 0 {
				j.CheckpointInterval = 10 * Second
			}
			jobs = append(jobs, j)
		}
		lines := runEvents(t, twoNodes(t), Config{Failures: &FailureModel{MTBF: 200 * Second, MTTR: 30 * Second, Seed: 5}}, jobs...)
		completed, requeued := 0, 0
		for _, l := range lines {
			completed += strings.Count(l, "completed ")
			requeued += strings.Count(l, "requeue ")
		}
		if completed != 300 || requeued == 0 {
			t.Fatalf("%d completed, %d requeued", completed, requeued)
		}
		return lines
	}
	if a, b := once(), once(); !reflect.DeepEqual(a, b) {
		t.Error("two runs differ")
	}
}

// preemptor is first fit in FCFS order, except that a job of priority > 0
// that does not fit preempts every running job of lower priority.
type preemptor struct{ firstFitFCFS }

func (p preemptor) Schedule(c *Context) error {
	for _, j := range c.Queue() {
		if j.Status != Queued || j.Job.Priority == 0 || c.TasksFitting(j, 0, 1)+c.TasksFitting(j, 1, 1) > 0 {
			continue
		}
		for _, r := range append([]*JobRun(nil), c.Running()...) {
			if r.Job.Priority < j.Job.Priority {
				if err := c.Preempt(r); err != nil {
					return err
				}
			}
		}
	}
	return p.firstFitFCFS.Schedule(c)
}

func TestPreempt(t *testing.T) {
	cpu4 := Quantity{"cpu", Units(4)}
	// low runs on a and b from 0 (two tasks), checkpoints every 10 s with a
	// 3 s restore. high (priority 1) arrives at 25 and needs one node:
	// low is preempted, keeping 20 s and losing 5; high runs 25–35; low
	// resumes at 35 with 80 s left plus 3 s of restore: it ends at 118.
	low := job("low", 0, 100, -1, 2, cpu4)
	low.CheckpointInterval, low.CheckpointCost = 10*Second, 3*Second
	high := job("high", 25, 10, -1, 1, cpu4)
	high.Priority = 1
	l := &nodeLog{}
	runChecked(t, twoNodes(t), preemptor{}, Config{}, l, low, high)
	want := []string{"start low @0", "requeue low (preemption) lost 5 saved 20 @25", "start high @25",
		"completed high @35", "start low @35", "completed low @118", "finished @118"}
	if !reflect.DeepEqual(l.lines, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(l.lines, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestMaxRestarts checks the restart cap: j1 (no checkpoints) is stopped
// by a's failure and restarts on b; b's failure is one stop past the cap
// of 1, so j1 is killed there instead of queued again (the checker holds),
// and the run ends there: only node events are left. Without the cap it
// waits for a recovery and completes.
func TestMaxRestarts(t *testing.T) {
	events := []NodeEvent{{At: 10 * Second, Node: "a", Kind: NodeFail}, {At: 20 * Second, Node: "b", Kind: NodeFail},
		{At: 30 * Second, Node: "a", Kind: NodeRecover}}
	cpu4 := Quantity{"cpu", Units(4)}
	for _, tc := range []struct {
		limit int
		want  []string
	}{
		{1, []string{"start j1 @0", "requeue j1 (relocation) lost 10 saved 0 @10", "node 0 down=true drained=false @10",
			"start j1 @10", "killed j1 @20", "node 1 down=true drained=false @20",
			"finished @20"}}, // nothing is left but node events; j1's planned end (110) does not count
		{0, []string{"start j1 @0", "requeue j1 (relocation) lost 10 saved 0 @10", "node 0 down=true drained=false @10",
			"start j1 @10", "requeue j1 (relocation) lost 10 saved 0 @20", "node 1 down=true drained=false @20",
			"node 0 down=false drained=false @30", "start j1 @30", "completed j1 @130", "finished @130"}},
	} {
		got := runEvents(t, twoNodes(t), Config{NodeEvents: events, MaxRestarts: tc.limit}, job("j1", 0, 100, -1, 1, cpu4))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("cap %d: got\n  %s\nwant\n  %s", tc.limit, strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
		}
	}
}
