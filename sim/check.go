package sim

import (
	"fmt"
	"strings"
)

// Checker is an Observer that verifies the engine's invariants with its own
// accounting: no node over-committed, every task on a node that has what it
// needs, start ≥ submit, end = start + min(runtime, walltime), every
// job in exactly one final state, and no job started before its
// dependencies ended, plus think time, as their conditions say; with
// power-down, that nodes switch as powercheck.go says. Its memory
// follows the running jobs, plus, like the engine's (deps.go), one small
// entry per job id for the dependencies.
type Checker struct {
	cluster  *Cluster
	used     []Amount // used[n*R+r], rebuilt from Started/Ended only
	counts   [5]int64
	seen     int64
	problems []string
	total    int
	offline  []bool // nodes down or drained, from NodeChanged
	deps     checkDeps
	power    checkPower // powercheck.go
}

// NewChecker returns a checker for cluster c.
func NewChecker(c *Cluster) *Checker {
	return &Checker{cluster: c, used: make([]Amount, len(c.Nodes)*len(c.Resources))}
}

func (k *Checker) fail(format string, args ...any) {
	k.total++
	if len(k.problems) < 20 {
		k.problems = append(k.problems, fmt.Sprintf(format, args...))
	}
}

// Submitted implements Observer.
func (k *Checker) Submitted(now Time, j *JobRun) {
	k.seen++
	if now != j.Job.Submit {
		k.fail("job %s submitted at %s s, trace says %s s", j.Job.ID, now, j.Job.Submit)
	}
	k.deps.submitted(j)
}

// Started implements Observer.
func (k *Checker) Started(now Time, j *JobRun) {
	if j.Start < j.Job.Submit || j.Start < j.TraceSubmit {
		k.fail("job %s starts at %s s before its submit %s s", j.Job.ID, j.Start, j.Job.Submit)
	}
	k.deps.started(k, j)
	k.power.started(k, now, j)
	for _, n := range j.Nodes {
		if k.offline != nil && k.offline[n] {
			k.fail("t=%s s: job %s starts a task on %s, which is down or drained", now, j.Job.ID, k.cluster.Nodes[n].Name)
		}
		k.book(now, j, int(n), 1)
	}
}

// book adds (sign +1) or removes (−1) one task of j on node n to the
// checker's accounting: on n and on each ancestor defining a resource;
// resources j is immune to are booked but not checked. On adding, it checks the task lands
// on a leaf whose chain defines every resource, and that nothing goes
// over capacity.
func (k *Checker) book(now Time, j *JobRun, n int, sign Amount) {
	R := len(k.cluster.Resources)
	if sign > 0 && k.cluster.IsParent(n) {
		k.fail("job %s: task on %s, a level of the hierarchy", j.Job.ID, k.cluster.Nodes[n].Name)
	}
	for _, q := range j.req {
		immune := contains(j.immune, q.Res)
		defined := false
		for m := n; m >= 0; m = k.cluster.parent(m) {
			capa, ok := k.cluster.Capacity(m, int(q.Res))
			if !ok {
				continue
			}
			defined = true
			i := m*R + int(q.Res)
			k.used[i] += sign * q.Amt
			if sign > 0 && !immune && k.used[i] > capa {
				k.fail("t=%s s: node %s over-committed on %s: %s used of %s (job %s)", now, k.cluster.Nodes[m].Name,
					k.cluster.Resources[q.Res], k.used[i], capa, j.Job.ID)
			}
		}
		if sign > 0 && !defined && !immune {
			k.fail("job %s: node %s lacks resource %s", j.Job.ID, k.cluster.Nodes[n].Name, k.cluster.Resources[q.Res])
		}
	}
}

// Ended implements Observer.
func (k *Checker) Ended(now Time, j *JobRun) {
	k.counts[j.Status]++
	want := j.Start + j.Remaining() + j.Restore()
	if j.Status == Killed {
		want = j.Start + j.Job.Walltime - j.Saved + j.Restore()
	}
	if j.gaveUp { // killed by a node event before its planned end
		want = min(max(j.End, j.Start), j.finishAt)
	}
	if j.End != want || now != j.End {
		k.fail("job %s (%s) ends at %s s, expected %s s", j.Job.ID, j.Status, j.End, want)
	}
	for _, n := range j.Nodes {
		k.book(now, j, int(n), -1)
	}
	k.power.stopped(j)
	k.deps.ended(now, j)
}

// NodeChanged implements NodeObserver: the checker keeps its own list of
// offline nodes, where no task may start.
func (k *Checker) NodeChanged(now Time, n int, down, drained bool) {
	if k.offline == nil {
		k.offline = make([]bool, len(k.cluster.Nodes))
	}
	k.offline[n] = down || drained
	if down {
		k.power.nodeDown(now, n)
	}
}

// Requeued implements NodeObserver: the stopped run gives its nodes back,
// and its lost work is what ran since the last checkpoint.
func (k *Checker) Requeued(now Time, j *JobRun, lost Time) {
	for _, n := range j.Nodes {
		k.book(now, j, int(n), -1)
	}
	k.power.stopped(j)
	if lost < 0 || lost > max(now-j.Start, 0) {
		k.fail("job %s: lost %s s of a run of %s s", j.Job.ID, lost, now-j.Start)
	}
}

// Rejected implements Observer.
func (k *Checker) Rejected(now Time, j *JobRun) {
	k.counts[Rejected]++
	k.deps.ended(now, j)
}

// Stepped implements Observer.
func (k *Checker) Stepped(now Time, c *Context) {}

// Finished implements Observer: the final tallies must add up and the
// engine's free capacity must match the checker's own accounting.
func (k *Checker) Finished(now Time, c *Context) {
	queued, running := int64(0), int64(0)
	for _, j := range c.Queue() {
		if j.Status == Queued {
			queued++
		}
	}
	running = int64(len(c.Running()))
	k.counts[Queued], k.counts[Running] = queued, running
	var sum int64
	for _, v := range k.counts {
		sum += v
	}
	if sum != k.seen {
		k.fail("%d jobs submitted but %d accounted for (%v)", k.seen, sum, k.counts)
	}
	R := len(k.cluster.Resources)
	free := c.FreeVector()
	for n := range k.cluster.Nodes {
		for r := 0; r < R; r++ {
			capa, ok := k.cluster.Capacity(n, r)
			if !ok {
				continue
			}
			if free[n*R+r] != capa-k.used[n*R+r] {
				k.fail("node %s resource %s: engine says %s free, checker says %s", k.cluster.Nodes[n].Name,
					k.cluster.Resources[r], free[n*R+r], capa-k.used[n*R+r])
			}
		}
	}
}

// Err returns nil when every invariant held, else an error listing the
// first violations.
func (k *Checker) Err() error {
	if k.total == 0 {
		return nil
	}
	return fmt.Errorf("%d invariant violations:\n  %s", k.total, strings.Join(k.problems, "\n  "))
}
