package sim

import "math/bits"

// Context is what a scheduler sees during a pass: read-only views of the
// engine state plus Start, the one action, which the engine checks.
type Context struct {
	e *Engine
}

// Now is the virtual clock.
func (c *Context) Now() Time { return c.e.now }

// Cluster is the compiled cluster.
func (c *Context) Cluster() *Cluster { return c.e.cluster }

// Queue returns the waiting jobs in queue order. Jobs started or rejected
// during the current pass stay in it until the pass ends; skip them (their
// Status is no longer Queued). Jobs held back by their dependencies are not
// in it until they are released (Held counts them).
//
// With Config.Limits or Config.Calendar, the queue of a pass holds only
// the jobs their user's and queue's caps let start (limits.go) and the
// calendar's window admits (calendar.go).
func (c *Context) Queue() []*JobRun {
	if c.e.inPass {
		return c.e.limits.shown
	}
	return c.e.queue
}

// Revealed returns the jobs of Queue that the previous pass's caps or
// calendar hid (Config.Limits, Config.Calendar): a job of the same user or
// queue ended or was rejected, or a new window began.
// A policy that skips the jobs it tried in an earlier pass when nothing
// changed must try these. Empty without limits and calendar.
func (c *Context) Revealed() []*JobRun {
	if c.e.inPass {
		return c.e.limits.revealed
	}
	return nil
}

// Running returns the running jobs, in no particular but deterministic order.
func (c *Context) Running() []*JobRun { return c.e.running }

// Ended returns the jobs that stopped running since the last scheduling
// pass, in the order they stopped: those that ended (completed or killed)
// and those stopped by a node event and queued again (Status Queued,
// Requeued says why).
func (c *Context) Ended() []*JobRun { return c.e.ended }

// Arrived counts the jobs submitted so far; every job has Seq < Arrived().
func (c *Context) Arrived() int64 { return c.e.submitted }

// Free returns node n's free amount of resource r and whether the node has r.
func (c *Context) Free(n, r int) (Amount, bool) {
	a := c.e.free[n*len(c.e.cluster.Resources)+r]
	return a, a != absent
}

// FreeVector returns the flat free array, free[n*R+r], with Absent for
// resources a node lacks. It is read-only and valid until the next Start.
func (c *Context) FreeVector() []Amount { return c.e.free }

// TasksFitting returns how many tasks of j fit on node n now, at most limit.
func (c *Context) TasksFitting(j *JobRun, n int, limit int) int {
	if !c.e.online(n) {
		return 0
	}
	return c.e.cluster.TasksFitting(c.e.free, n, j.req, j.immune, limit)
}

// AvailableNodes returns a bitset (bit n%64 of word n/64) of the nodes
// with a positive free amount of resource r. Read-only; valid until the
// next Start.
func (c *Context) AvailableNodes(r int) []uint64 { return c.e.avail[r] }

// ForEachNode calls visit for the nodes of a bitset (bit n%64 of word
// n/64, as AvailableNodes gives), in increasing order, until visit returns
// false.
func ForEachNode(set []uint64, visit func(n int) bool) {
	for w, word := range set {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			if !visit(w*64 + b) {
				return
			}
			word &= word - 1
		}
	}
}

// Allocated returns the amount of resource r in use over the cluster.
func (c *Context) Allocated(r int) Amount { return c.e.allocated[r] }

// TotalFree returns the free amount of resource r over the cluster.
func (c *Context) TotalFree(r int) Amount { return c.e.power.total[r] - c.e.allocated[r] }

// PowerW is the cluster's draw now, in watts.
func (c *Context) PowerW() float64 { return c.e.power.watts() }

// EventsApplied counts the events applied so far.
func (c *Context) EventsApplied() int64 { return c.e.events64 }

// Start places task i of j on nodes[i] and starts j now.
func (c *Context) Start(j *JobRun, nodes []int32) error { return c.e.start(j, nodes) }

// Preempt stops running job j so that a higher-priority job can use its
// nodes (their capacity is free at once). j loses the work since its last
// checkpoint, pays its checkpoint cost when it resumes, and returns to the
// queue when the pass ends (Requeued = "preemption"). Which jobs may
// preempt which is the policy's rule.
func (c *Context) Preempt(j *JobRun) error { return c.e.preempt(j) }

// NodeOnline reports whether node n takes new tasks: it is neither down
// nor drained.
func (c *Context) NodeOnline(n int) bool { return c.e.online(n) }

// NodeChanges returns the nodes whose state changed (down, up, drained,
// undrained) since the last pass; NodeOnline says what they are now.
func (c *Context) NodeChanges() []int32 { return c.e.nodes.changed }

// NodeEventsEnabled reports whether nodes may change state in this run.
func (c *Context) NodeEventsEnabled() bool { return c.e.nodes.down != nil }

// Reject ends queued job j as rejected, for a reason the engine cannot see
// (no node meets one of its constraints). Like a started job it stays in
// Queue() until the pass ends; skip jobs whose Status is not Queued.
func (c *Context) Reject(j *JobRun, reason string) error { return c.e.reject(j, reason) }

// WakeAt asks for a scheduling pass at time t even if nothing else happens
// then (a reservation coming due, a cycle tick). Times not after now are
// ignored.
func (c *Context) WakeAt(t Time) { c.e.wakeAt(t) }

// Absent is the free amount reported for a resource a node does not have.
const Absent = absent

// TasksFittingIn returns how many tasks with request req fit into a flat
// free array (free[n*R+r]) at node n, at most limit. Policies use it on
// their own projections of future free capacity.
func TasksFittingIn(free []Amount, R, n int, req []Need, limit int) int {
	return tasksFitting(free, R, n, req, limit)
}

// Kill ends running job j now as killed, for reason (an external
// scheduler's KILL_JOB). Its run so far counts and its nodes are free at
// once; it is not in Ended() of this pass.
func (c *Context) Kill(j *JobRun, reason string) error { return c.e.kill(j, reason) }

// AllSubmitted reports whether every job of the trace has been submitted:
// none is left to arrive or to be released by its dependencies (Batsim's
// no_more_static_job_to_submit).
func (c *Context) AllSubmitted() bool { return c.e.allSubmitted() }
