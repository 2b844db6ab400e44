package sim

import "fmt"

// This file decides "can this job ever run" when the cluster has
// shortcomings, and says what a job still waiting for one at the horizon
// waits for.
//
// A shortcoming is a finite negative amount on a node (pylighthouse): it
// blocks every task that does not list the resource, and a task that
// lists it fits only when free − requirement ≥ 0. A running task with a
// negative requirement raises the free amount (−5 − (−5) = 0), and tasks
// that cancel it stack (0 − (−5) = 5), so the empty cluster is not the
// most permissive state the cluster can reach: with node m {mud: −5}, a
// job {cpu: 1} cannot run on the empty m but runs beside a job
// {mud: −5}. Which jobs will come to cancel a shortcoming is not known at
// submission (the trace streams), so the check at submission lifts every
// shortcoming out of the way: the most permissive reachable state is the
// empty cluster with each shortcoming cancelled without bound. Wards
// (−∞) stay: only an immunity overcomes one. Positive amounts stay at
// their capacity, the most they can ever be free.
//
// A job that passes this check but not the empty cluster waits for a
// shortcoming to be cancelled. If it still waits at the horizon, the
// engine gives it a reason naming the resource and the node
// (shortcomingReason), which the outputs report with the queued job.

// lifted is the free amount a shortcoming stands at in the permissive
// state: larger than any requirement (within ±1e15 units), far from
// overflowing when tasks are subtracted from it.
const lifted Amount = 1 << 58

// initPermissive fills c.permissive: the capacities with every finite
// negative amount lifted. A cluster without shortcomings shares the
// capacity slice.
func (c *Cluster) initPermissive() {
	c.permissive = c.capacity
	c.shortRes = make([]bool, len(c.Resources))
	for i, a := range c.capacity {
		if a < 0 && a != absent {
			c.shortRes[i%len(c.Resources)] = true
		}
		if a < 0 && a != Ward && a != absent {
			if !c.shortcomings {
				c.shortcomings = true
				c.permissive = append([]Amount(nil), c.capacity...)
			}
			c.permissive[i] = lifted
		}
	}
}

// PermissiveVector returns a copy of the free amounts of the most
// permissive state the cluster can reach, laid out like CapacityVector:
// the empty cluster with every shortcoming cancelled. A job that no node
// of it can hold can never run.
func (c *Cluster) PermissiveVector() []Amount { return append([]Amount(nil), c.permissive...) }

// explainWaiting gives each job still queued at the horizon that waits for
// a shortcoming to be cancelled its reason (JobRun.Reason), for the
// outputs. Only a cluster with shortcomings has such jobs.
func (e *Engine) explainWaiting() {
	if !e.cluster.shortcomings {
		return
	}
	for _, j := range e.queue {
		if j.Status != Queued {
			continue
		}
		if why := e.shortcomingReason(j); why != "" {
			j.Reason = why
		}
	}
}

// shortcomingReason returns why queued job j waits for a shortcoming, or
// "" when it does not: some online node of the empty cluster can hold a
// task of it, or none can even with the shortcomings cancelled. It names
// the first node (in index order) that the permissive state lets j use,
// and the first shortcoming there that blocks it now:
//
//	waits for mud: node m short by 5, nothing running cancels it
//	waits for mud: node m short by 1, running jobs cancel 4 of it
func (e *Engine) shortcomingReason(j *JobRun) string {
	c := e.cluster
	for n := range c.Nodes {
		if e.online(n) && c.TasksFitting(c.capacity, n, j.req, j.immune, 1) > 0 {
			return "" // the empty cluster holds it: it waits for something else
		}
	}
	for n := range c.Nodes {
		if !e.online(n) || c.TasksFitting(c.permissive, n, j.req, j.immune, 1) == 0 {
			continue
		}
		if why := e.blockingShortcoming(j, n); why != "" {
			return why
		}
	}
	return ""
}

// blockingShortcoming names the first shortcoming on node n's chain that
// keeps a task of j off n now, with how far it is from letting the task
// in; "" when no shortcoming blocks it now.
func (e *Engine) blockingShortcoming(j *JobRun, n int) string {
	c := e.cluster
	R := len(c.Resources)
	for m := n; m >= 0; m = c.parent(m) {
		for r := 0; r < R; r++ {
			capa := c.capacity[m*R+r]
			if capa >= 0 || capa == Ward || capa == absent || contains(j.immune, int32(r)) {
				continue
			}
			want := Amount(0) // a resource j does not list must not be below zero
			for _, q := range j.req {
				if int(q.Res) == r {
					want = q.Amt
				}
			}
			free := e.free[m*R+r]
			short := want - free
			if short <= 0 {
				continue
			}
			cancelled := "nothing running cancels it"
			if free > capa {
				cancelled = fmt.Sprintf("running jobs cancel %s of it", free-capa)
			}
			return fmt.Sprintf("waits for %s: node %s short by %s, %s", c.Resources[r], c.Nodes[m].Name, short, cancelled)
		}
	}
	return ""
}
