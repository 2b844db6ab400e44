package sim

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// depLog records what happened to each job, with times, and the effective
// submit of each job as it starts.
type depLog struct {
	lines []string
	queue []string // jobs still queued at Finished
}

func (l *depLog) add(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}
func (l *depLog) Submitted(now Time, j *JobRun) {}
func (l *depLog) Started(now Time, j *JobRun) {
	if j.Job.Submit != j.TraceSubmit {
		l.add("start %s @%s (submit %s, trace %s)", j.Job.ID, now, j.Job.Submit, j.TraceSubmit)
		return
	}
	l.add("start %s @%s", j.Job.ID, now)
}
func (l *depLog) Ended(now Time, j *JobRun) { l.add("%s %s @%s", j.Status, j.Job.ID, now) }
func (l *depLog) Rejected(now Time, j *JobRun) {
	l.add("reject %s @%s: %s", j.Job.ID, now, j.Reason)
}
func (l *depLog) Stepped(now Time, c *Context) {}
func (l *depLog) Finished(now Time, c *Context) {
	for _, j := range c.Queue() {
		if j.Status == Queued {
			l.queue = append(l.queue, j.Job.ID)
		}
	}
}

// after adds dependencies to j: "id" (after success), "id?" (after any),
// with "+N" for N seconds of think time: "a+5", "b?+10".
func after(j *Job, deps ...string) *Job {
	for _, d := range deps {
		var dep Dependency
		d, think, ok := strings.Cut(d, "+")
		if ok {
			var s int64
			fmt.Sscan(think, &s)
			dep.Think = Time(s) * Second
		}
		dep.ID, dep.AfterAny = strings.CutSuffix(d, "?")
		j.DependsOn = append(j.DependsOn, dep)
	}
	return j
}

func runDeps(t *testing.T, cfg Config, jobs ...*Job) (*depLog, *Engine) {
	t.Helper()
	c := twoNodes(t)
	l := &depLog{}
	e := runChecked(t, c, firstFitFCFS{}, cfg, l, jobs...)
	// Nothing of the bookkeeping outlives the jobs but the outcomes.
	d := &e.deps
	if cfg.Until == 0 && (len(d.held) != 0 || len(d.shadowed) != 0 || len(d.waiters) != 0) {
		t.Errorf("left over: held %d, shadowed %d, waiters %d", len(d.held), len(d.shadowed), len(d.waiters))
	}
	return l, e
}

func TestDepScenarios(t *testing.T) {
	cpu := Quantity{"cpu", Units(1)}
	j := func(id string, submit, run, wall Time) *Job { return job(id, submit, run, wall, 1, cpu) }
	cases := []struct {
		name string
		kill bool
		jobs []*Job
		want []string
	}{{
		// Every job fits at once: only the dependencies hold them. c's
		// think time makes it enter the queue 3 s after b ends; its
		// effective submit is then, not its trace submit.
		name: "chain",
		jobs: []*Job{j("a", 0, 10, NoWalltime), after(j("b", 0, 5, NoWalltime), "a"), after(j("c", 1, 5, NoWalltime), "b+3")},
		want: []string{
			"start a @0", "completed a @10",
			"start b @10 (submit 10, trace 0)", "completed b @15",
			"start c @18 (submit 18, trace 1)", "completed c @23",
		},
	}, {
		name: "fan-in waits for the last",
		jobs: []*Job{j("a", 0, 10, NoWalltime), j("b", 0, 20, NoWalltime), after(j("c", 0, 5, NoWalltime), "a+15", "b")},
		want: []string{
			"start a @0", "start b @0", "completed a @10",
			"completed b @20", "start c @25 (submit 25, trace 0)", "completed c @30",
		},
	}, {
		// a is killed at its walltime: b (after success) can never run,
		// c (after any) runs after the kill and its think time; d waits
		// for b after success, so b's rejection rejects it; e accepts
		// any end, b's rejection included.
		name: "after success vs after any, killed dependency",
		kill: true,
		jobs: []*Job{
			j("a", 0, 100, 10*Second), after(j("b", 0, 5, NoWalltime), "a"), after(j("c", 0, 5, NoWalltime), "a?+5"),
			after(j("d", 1, 5, NoWalltime), "b"), after(j("e", 2, 5, NoWalltime), "b?"),
		},
		want: []string{
			"start a @0", "killed a @10",
			"reject b @10: dependency a was killed", "reject d @10: dependency b was rejected",
			"start e @10 (submit 10, trace 2)",
			"completed e @15", "start c @15 (submit 15, trace 0)", "completed c @20",
		},
	}, {
		// A dependency that ended long ago: the think time is over, the
		// job is queued at its trace submit. One that ended recently:
		// the rest of the think time.
		name: "think time from an ended dependency",
		jobs: []*Job{j("a", 0, 1, NoWalltime), after(j("b", 100, 1, NoWalltime), "a+5"), after(j("c", 103, 1, NoWalltime), "b+10")},
		want: []string{
			"start a @0", "completed a @1", "start b @100", "completed b @101",
			"start c @111 (submit 111, trace 103)", "completed c @112",
		},
	}, {
		name: "missing dependency",
		jobs: []*Job{j("a", 0, 1, NoWalltime), after(j("b", 0, 1, NoWalltime), "a", "99"), after(j("c", 0, 1, NoWalltime), "b?")},
		want: []string{
			"reject b @0: dependency 99 is not in the trace (a job may only depend on earlier ones)",
			"start a @0", "start c @0", "completed a @1", "completed c @1",
		},
	}, {
		// a can never fit and is rejected at its submit.
		name: "dependency on a rejected job",
		jobs: []*Job{
			job("a", 0, 1, NoWalltime, 100, cpu), after(j("b", 0, 1, NoWalltime), "a"),
			after(j("c", 5, 1, NoWalltime), "a"), after(j("d", 5, 1, NoWalltime), "a?"),
		},
		want: []string{
			"reject a @0: needs 100 tasks but the empty cluster holds only 8",
			"reject b @0: dependency a was rejected",
			"reject c @5: dependency a was rejected",
			"start d @5", "completed d @6",
		},
	}, {
		// A cycle cannot be followed in a submit-ordered trace: its
		// first job names a later one, which is no dependency at all;
		// the rest of the cycle is rejected in turn. So is a job naming
		// itself.
		name: "cycle and self",
		jobs: []*Job{
			after(j("a", 0, 1, NoWalltime), "b"), after(j("b", 0, 1, NoWalltime), "a"),
			after(j("s", 1, 1, NoWalltime), "s"),
		},
		want: []string{
			"reject a @0: dependency b is not in the trace (a job may only depend on earlier ones)",
			"reject b @0: dependency a was rejected",
			"reject s @1: dependency s is the job itself",
		},
	}, {
		// Ids repeat in some traces: a dependency names the latest job
		// with the id that arrived before it.
		name: "duplicate ids",
		jobs: []*Job{
			j("a", 0, 10, NoWalltime), after(j("c", 0, 1, NoWalltime), "a"),
			j("a", 1, 20, NoWalltime), after(j("b", 2, 1, NoWalltime), "a"),
		},
		want: []string{
			"start a @0", "start a @1", "completed a @10",
			"start c @10 (submit 10, trace 0)", "completed c @11",
			"completed a @21", "start b @21 (submit 21, trace 2)", "completed b @22",
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, _ := runDeps(t, Config{KillAtWalltime: tc.kill}, tc.jobs...)
			if !reflect.DeepEqual(l.lines, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(l.lines, "\n  "), strings.Join(tc.want, "\n  "))
			}
			if len(l.queue) != 0 {
				t.Errorf("left queued: %v", l.queue)
			}
		})
	}
}

// TestDepHorizon: jobs held back at the horizon, waiting for a dependency
// or for their think time, are reported with the queue.
func TestDepHorizon(t *testing.T) {
	cpu := Quantity{"cpu", Units(1)}
	l, e := runDeps(t, Config{Until: 50 * Second},
		job("a", 0, 100, NoWalltime, 1, cpu), job("x", 0, 10, NoWalltime, 1, cpu),
		after(job("b", 0, 1, NoWalltime, 1, cpu), "a"), after(job("c", 1, 1, NoWalltime, 1, cpu), "x+60"))
	if want := []string{"b", "c"}; !reflect.DeepEqual(l.queue, want) {
		t.Errorf("queued at the horizon: %v, want %v", l.queue, want)
	}
	for _, j := range e.ctx.Queue() {
		if j.Job.Submit != j.TraceSubmit {
			t.Errorf("job %s, never released, has submit %s", j.Job.ID, j.Job.Submit)
		}
	}
}

// TestDepSchedulerReject: a job the scheduler rejects rejects those
// waiting for its success, and releases those waiting for any end, by an
// event at the same time (the queue does not change during a pass).
func TestDepSchedulerReject(t *testing.T) {
	c := twoNodes(t)
	l := &depLog{}
	cpu := Quantity{"cpu", Units(1)}
	jobs := []*Job{job("a", 0, 1, NoWalltime, 1, cpu), after(job("b", 0, 1, NoWalltime, 1, cpu), "a"), after(job("c", 0, 1, NoWalltime, 1, cpu), "a?")}
	s := schedFunc(func(ctx *Context) error {
		for _, j := range ctx.Queue() {
			var err error
			if j.Job.ID == "a" {
				err = ctx.Reject(j, "no")
			} else if j.Status == Queued {
				err = ctx.Start(j, []int32{0})
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	runChecked(t, c, s, Config{}, l, jobs...)
	want := []string{"reject a @0: no", "reject b @0: dependency a was rejected", "start c @0", "completed c @1"}
	if !reflect.DeepEqual(l.lines, want) {
		t.Errorf("got %q, want %q", l.lines, want)
	}
}

type schedFunc func(*Context) error

func (f schedFunc) Schedule(c *Context) error { return f(c) }

// TestDepCheckerCatches: the checker's dependency invariant on its own,
// fed a run where a job starts too early.
func TestDepCheckerCatches(t *testing.T) {
	c := twoNodes(t)
	cases := []struct {
		name      string
		dep       string
		aStatus   JobStatus
		aEnd, bAt Time
		want      string
	}{
		{"before the end", "a", Completed, 0, 5, "before its dependency a ended"},
		{"before the think time", "a+10", Completed, 5, 12, "before its dependency a's end 5 s + think 10 s"},
		{"after a kill", "a", Killed, 5, 6, "though its dependency a was killed"},
		{"missing", "z", Completed, 5, 6, "dependency z is not in the trace"},
		{"fine", "a?+1", Killed, 5, 6, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := NewChecker(c)
			a := &JobRun{Job: job("a", 0, 1, NoWalltime, 1)}
			b := &JobRun{Job: after(job("b", 0, 1, NoWalltime, 1), tc.dep)}
			k.Submitted(0, a)
			k.Submitted(0, b)
			if tc.aEnd > 0 {
				a.Status, a.End = tc.aStatus, tc.aEnd*Second
				k.deps.ended(a.End, a)
			}
			b.Start = tc.bAt * Second
			k.Started(b.Start, b)
			err := k.Err()
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestDepStreaming: a long chain keeps only the live jobs' bookkeeping;
// the ids map holds one outcome per ended job.
func TestDepStreaming(t *testing.T) {
	cpu := Quantity{"cpu", Units(1)}
	var jobs []*Job
	for i := 0; i < 1000; i++ {
		j := job(fmt.Sprint(i), Time(i), 1, NoWalltime, 1, cpu)
		if i > 0 {
			after(j, fmt.Sprint(i-1))
		}
		jobs = append(jobs, j)
	}
	l, e := runDeps(t, Config{}, jobs...)
	if got := l.lines[len(l.lines)-1]; got != "completed 999 @1000" {
		t.Errorf("last line %q", got)
	}
	if n := e.deps.done.len(); n != 1000 || e.deps.alive.len() != 0 {
		t.Errorf("%d outcomes, want 1000; %d alive", n, e.deps.alive.len())
	}
	if len(e.deps.done.dense) > denseSpread*1000+denseSlack {
		t.Errorf("dense outcomes %d long", len(e.deps.done.dense))
	}
}

// TestDepOutcomes: the outcome store keeps numeric ids by number (dense,
// then sparse) and other ids by text; "7" and "007" are different ids;
// a later job with the same id replaces the outcome.
func TestDepOutcomes(t *testing.T) {
	var m outcomes
	ids := []string{"0", "7", "007", "+7", "7.0", "a", "", "123456789012345678", "1234567890123456789", "5000", "99999999"}
	for i, id := range ids {
		m.put(id, packOutcome(Time(i)*Second, Completed))
	}
	m.put("7", packOutcome(100*Second, Killed))
	for i, id := range ids {
		o, ok := m.get(id)
		want := packOutcome(Time(i)*Second, Completed)
		if id == "7" {
			want = packOutcome(100*Second, Killed)
		}
		if !ok || o != want {
			t.Errorf("%q: got %v %v, want end %s code %d", id, o, ok, want.end(), want.code())
		}
	}
	if _, ok := m.get("8"); ok {
		t.Error(`"8" found`)
	}
	if m.len() != len(ids) || len(m.dense) > denseSpread*m.nDense+denseSlack {
		t.Errorf("len %d (dense %d of %d), want %d", m.len(), m.nDense, len(m.dense), len(ids))
	}
	// A number first kept sparse, then reached by dense growth, moves.
	var n outcomes
	n.put("10000", packOutcome(1, Completed))
	for i := 0; i < 4000; i++ {
		n.put(strconv.Itoa(i), packOutcome(2, Completed))
	}
	n.put("10000", packOutcome(3, Killed))
	if o, _ := n.get("10000"); o != packOutcome(3, Killed) || n.len() != 4001 {
		t.Errorf("moved id: %v, len %d", o, n.len())
	}
	// An excerpt of a log numbered from 272393 is dense too; an id below
	// the dense range is kept in the map.
	var b outcomes
	for i := range 5000 {
		b.put(strconv.Itoa(272393+i), packOutcome(Time(i), Completed))
	}
	b.put("100", packOutcome(1, Killed))
	if len(b.num) != 1 || b.nDense != 5000 || len(b.dense) > denseSpread*b.nDense+denseSlack {
		t.Errorf("offset ids: %d in the map, %d dense of %d", len(b.num), b.nDense, len(b.dense))
	}
	for _, c := range []struct {
		id   string
		want outcome
	}{{"272393", packOutcome(0, Completed)}, {"277392", packOutcome(4999, Completed)}, {"100", packOutcome(1, Killed)}} {
		if o, ok := b.get(c.id); !ok || o != c.want {
			t.Errorf("offset ids: %s got %v %v", c.id, o, ok)
		}
	}
	if _, ok := b.get("277393"); ok {
		t.Error(`"277393" found`)
	}
}

// TestDepOutcomesGap: a gap early in the numbering (CEA-Curie's first
// 2,000 ids span 11,000) sends a few ids to the map, but the dense range
// then reaches past it and takes them back: the map stays small.
func TestDepOutcomesGap(t *testing.T) {
	var m outcomes
	id := 272393
	for n := range 100000 {
		if n == 1941 {
			id += 9000
		}
		m.put(strconv.Itoa(id), packOutcome(Time(n), Completed))
		id++
	}
	if len(m.num) > 0 || m.len() != 100000 || len(m.dense) > denseSpread*m.nDense+denseSlack {
		t.Errorf("%d in the map, %d dense of %d", len(m.num), m.nDense, len(m.dense))
	}
	for _, c := range []struct{ id, n int }{{272393, 0}, {274333, 1940}, {283334, 1941}, {381392, 99999}} {
		if o, ok := m.get(strconv.Itoa(c.id)); !ok || o != packOutcome(Time(c.n), Completed) {
			t.Errorf("%d: got %v %v", c.id, o, ok)
		}
	}
}
