// Package sim is the discrete-event engine of schedsim: the virtual clock, the
// deterministic event heap, cluster and job state, the run loop and the
// invariant checker.
//
// The engine owns every piece of mutable state. Policies (package policies)
// see it through a Context, which offers read-only views of the queue, the
// running jobs and the free capacity of each node, plus one action, Start,
// which the engine checks before applying. The engine runs in one goroutine;
// parallelism lives above it (many runs at once).
//
// Time is exact: Time counts microseconds. Resource amounts are exact: Amount
// counts thousandths of a unit, so fractional shares (0.5 cpu) never drift.
//
// The engine streams its trace: it holds the next job to submit, the queue
// and the running jobs, never the whole trace.
//
// A job is rejected at submission only when it can never run: when no
// node can hold its tasks in the most permissive state the cluster can
// reach, the empty cluster with its shortcomings (finite negative amounts)
// cancelled, since running jobs with negative requirements lift them
// (shortcoming.go). A job still waiting for a shortcoming at the horizon
// is reported queued with a reason naming the resource and the node. A
// job whose tasks are independent (Job.IndependentTasks) runs as one job
// per task, ID#0, ID#1, … (split.go).
//
// Power (power.go, powerdown.go): the cluster's draw is an exact sum over
// classes of identical nodes by power state. With Config.PowerDown, idle
// nodes switch off and sleep; a start on a sleeping node wakes it and the
// run begins when its last node is on (Batsim's semantics), which the
// Checker verifies. StepSeries (powerseries.go) is the price and carbon
// series metrics integrate energy against.
package sim
