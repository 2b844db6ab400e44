package sim

import (
	"strings"
	"testing"
)

// firstFitFCFS is the smallest scheduler: queue order, first fit, no
// backfilling. It is written here so the engine is tested on its own.
type firstFitFCFS struct{}

func (firstFitFCFS) Schedule(c *Context) error {
	for _, j := range c.Queue() {
		var nodes []int32
		left := j.Job.Tasks
		for n := range c.Cluster().Nodes {
			k := c.TasksFitting(j, n, left)
			for i := 0; i < k; i++ {
				nodes = append(nodes, int32(n))
			}
			left -= k
			if left == 0 {
				break
			}
		}
		if left > 0 {
			return nil
		}
		if err := c.Start(j, nodes); err != nil {
			return err
		}
	}
	return nil
}

// log records what happened, one line per event.
type log struct{ lines []string }

func (l *log) add(s string)                  { l.lines = append(l.lines, s) }
func (l *log) Submitted(now Time, j *JobRun) {}
func (l *log) Started(now Time, j *JobRun)   { l.add("start " + j.Job.ID + " @" + now.String()) }
func (l *log) Ended(now Time, j *JobRun) {
	l.add(j.Status.String() + " " + j.Job.ID + " @" + now.String())
}
func (l *log) Rejected(now Time, j *JobRun)  { l.add("reject " + j.Job.ID + ": " + j.Reason) }
func (l *log) Stepped(now Time, c *Context)  {}
func (l *log) Finished(now Time, c *Context) { l.add("finished @" + now.String()) }

func twoNodes(t *testing.T) *Cluster {
	c, err := NewCluster([]NodeSpec{
		{Name: "a", Capacity: []Quantity{{"cpu", Units(4)}, {"mem", Units(8)}}},
		{Name: "b", Capacity: []Quantity{{"cpu", Units(4)}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func job(id string, submit, run, wall Time, tasks int, req ...Quantity) *Job {
	return &Job{ID: id, Submit: submit * Second, Runtime: run * Second, Walltime: wall, Tasks: tasks, Request: req}
}

func run(t *testing.T, c *Cluster, kill bool, jobs ...*Job) []string {
	t.Helper()
	l := &log{}
	runChecked(t, c, firstFitFCFS{}, Config{KillAtWalltime: kill}, l, jobs...)
	return l.lines
}

// runChecked replays jobs on c with s under cfg, obs watching, beside the
// invariant checker; it fails the test on an error of the run or of the
// checker, and returns the engine for the tests of its state.
func runChecked(t *testing.T, c *Cluster, s Scheduler, cfg Config, obs Observer, jobs ...*Job) *Engine {
	t.Helper()
	chk := NewChecker(c)
	e := NewEngine(c, &SliceSource{Jobs: jobs}, s, cfg, obs, chk)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEngineScenarios(t *testing.T) {
	cpu := func(n int64) Quantity { return Quantity{"cpu", Units(n)} }
	cases := []struct {
		name string
		kill bool
		jobs []*Job
		want string
	}{{
		// Gang start: j2 needs two 3-cpu tasks, one per node, so it waits
		// for j1 (2 cpus on a) to end at 10 s.
		name: "gang",
		jobs: []*Job{job("j1", 0, 10, NoWalltime, 1, cpu(2)), job("j2", 1, 5, NoWalltime, 2, cpu(3))},
		want: "start j1 @0|completed j1 @10|start j2 @10|completed j2 @15|finished @15",
	}, {
		// Walltime kill: runtime 20 s, walltime 5 s.
		name: "kill", kill: true,
		jobs: []*Job{job("j1", 0, 20, 5*Second, 1, cpu(1))},
		want: "start j1 @0|killed j1 @5|finished @5",
	}, {
		// The same job runs to its end when killing is off.
		name: "no kill",
		jobs: []*Job{job("j1", 0, 20, 5*Second, 1, cpu(1))},
		want: "start j1 @0|completed j1 @20|finished @20",
	}, {
		// Rejections at submit: too many tasks for the empty cluster, a
		// resource only node a has asked on two nodes' worth, a resource
		// nobody has. The queue is not blocked by them.
		name: "reject",
		jobs: []*Job{
			job("big", 0, 1, NoWalltime, 3, cpu(4)),
			job("mem", 0, 1, NoWalltime, 2, Quantity{"mem", Units(5)}),
			job("gpu", 0, 1, NoWalltime, 1, Quantity{"gpu", Units(1)}),
			job("ok", 0, 1, NoWalltime, 1, cpu(1)),
		},
		want: "reject big: needs 3 tasks but the empty cluster holds only 2|reject mem: needs 2 tasks but the empty cluster holds only 1|" +
			`reject gpu: no node has resource "gpu"|start ok @0|completed ok @1|finished @1`,
	}, {
		// Runtime 0: starts and ends at once; the next job still sees the
		// same instant.
		name: "zero runtime",
		jobs: []*Job{job("z", 3, 0, NoWalltime, 2, cpu(4)), job("n", 3, 1, NoWalltime, 2, cpu(4))},
		want: "start z @3|completed z @3|start n @3|completed n @4|finished @4",
	}, {
		// Fractional times stay exact.
		name: "exact time",
		jobs: []*Job{{ID: "f", Submit: 88_510_000, Runtime: 1_490_000, Walltime: NoWalltime, Tasks: 1, Request: []Quantity{cpu(1)}}},
		want: "start f @88.51|completed f @90|finished @90",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(run(t, twoNodes(t), c.kill, c.jobs...), "|")
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestEngineRejectsUnsortedTrace(t *testing.T) {
	c := twoNodes(t)
	jobs := []*Job{job("late", 10, 1, NoWalltime, 1), job("early", 5, 1, NoWalltime, 1)}
	err := NewEngine(c, &SliceSource{Jobs: jobs}, firstFitFCFS{}, Config{}).Run()
	if err == nil || !strings.Contains(err.Error(), "submit order") {
		t.Fatalf("want an ordering error, got %v", err)
	}
}

// overCommit starts every job on node 0 whether it fits or not: the
// engine must refuse the decision.
type overCommit struct{}

func (overCommit) Schedule(c *Context) error {
	for _, j := range c.Queue() {
		if err := c.Start(j, []int32{0}); err != nil {
			return err
		}
	}
	return nil
}

func TestEngineChecksDecisions(t *testing.T) {
	c := twoNodes(t)
	jobs := []*Job{job("a", 0, 5, NoWalltime, 1, Quantity{"cpu", Units(3)}), job("b", 0, 5, NoWalltime, 1, Quantity{"cpu", Units(3)})}
	err := NewEngine(c, &SliceSource{Jobs: jobs}, overCommit{}, Config{}).Run()
	if err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Fatalf("want a refused decision, got %v", err)
	}
}

// TestEventOrder: at one instant ends come before arrivals, then by
// insertion order.
func TestEventOrder(t *testing.T) {
	var h eventHeap
	h.push(event{at: 5, kind: evSubmit, seq: 0})
	h.push(event{at: 5, kind: evFinish, seq: 1})
	h.push(event{at: 1, kind: evSubmit, seq: 2})
	h.push(event{at: 5, kind: evFinish, seq: 3})
	var got []uint64
	for h.len() > 0 {
		got = append(got, h.pop().seq)
	}
	if want := []uint64{2, 1, 3, 0}; !equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPowerClassesExact(t *testing.T) {
	c, err := NewCluster([]NodeSpec{
		{Name: "a", Capacity: []Quantity{{"cpu", Units(4)}}, Power: PowerModel{IdleW: 100, MaxW: 200}},
		{Name: "b", Capacity: []Quantity{{"cpu", Units(4)}}, Power: PowerModel{IdleW: 100, MaxW: 200}},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := newPowerModel(c)
	req := []Need{{Res: 0, Amt: Units(1)}}
	p.changed(0, req, 1)
	p.changed(1, req, 1)
	p.changed(1, req, 1)
	// 2 × 100 W idle + 100 W × 3 cpus / 4 cpus = 275 W.
	if w := p.watts(); w != 275 {
		t.Fatalf("power %g W, want 275", w)
	}
}

// TestNoDependencies: a trace declared without dependencies replays as
// it does undeclared, and a job with dependencies in it is an error.
func TestNoDependencies(t *testing.T) {
	c := twoNodes(t)
	cpu := []Quantity{{"cpu", Units(3)}} // shared, as an interning reader does
	jobs := func() []*Job {
		return []*Job{
			{ID: "1", Submit: 0, Runtime: 5 * Second, Walltime: NoWalltime, Tasks: 1, Request: cpu},
			{ID: "1", Submit: Second, Runtime: 5 * Second, Walltime: NoWalltime, Tasks: 2, Request: cpu},
			{ID: "2", Submit: Second, Runtime: 5 * Second, Walltime: NoWalltime, Tasks: 3, Request: cpu},
		}
	}
	replay := func(cfg Config, jobs []*Job) ([]string, error) {
		l := &log{}
		err := NewEngine(c, &SliceSource{Jobs: jobs}, firstFitFCFS{}, cfg, l).Run()
		return l.lines, err
	}
	want, err := replay(Config{}, jobs())
	if err != nil {
		t.Fatal(err)
	}
	got, err := replay(Config{NoDependencies: true}, jobs())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("declared without dependencies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	withDeps := jobs()
	withDeps[1].DependsOn = []Dependency{{ID: "1"}}
	if _, err := replay(Config{NoDependencies: true}, withDeps); err == nil || !strings.Contains(err.Error(), "declared to have none") {
		t.Errorf("a job with dependencies in a trace declared without: got %v", err)
	}
}

// A job whose end would come before its start (a negative runtime: the
// runtime factor 5e7 once made −9.22e12 s) stops the run, naming it.
func TestEngineRefusesEndBeforeStart(t *testing.T) {
	c, err := NewCluster([]NodeSpec{{Name: "n", Capacity: []Quantity{{"cpu", Units(4)}}}})
	if err != nil {
		t.Fatal(err)
	}
	bad := job("back", 5, 0, NoWalltime, 1, Quantity{"cpu", Units(1)})
	bad.Runtime = -9_223_372_036_854 * Second
	err = NewEngine(c, &SliceSource{Jobs: []*Job{bad}}, firstFitFCFS{}, Config{}).Run()
	if err == nil || !strings.Contains(err.Error(), "job back would end at -9223372036849 s, before its start at 5 s (runtime -9223372036854 s)") {
		t.Fatalf("got %v", err)
	}
}
