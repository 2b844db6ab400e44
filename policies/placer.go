package policies

import (
	"fmt"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// placer chooses the nodes of a job that starts now. The batch schedulers
// (strict, EASY) decide when a job starts; a placer decides where.
type placer interface {
	// sync books what ended since the last pass; called first in a pass.
	sync(c *sim.Context)
	// place returns j's nodes, one per task, or nil when j does not fit
	// now. limit, when not nil, caps the tasks node n may take (EASY);
	// skip, when not nil, is a bitset of nodes where limit gives 0, which
	// a placer may pass over without asking. A job it finds can never run
	// it rejects through c.Reject.
	place(c *sim.Context, j *sim.JobRun, limit func(n, fit int) int, skip []uint64, out []int32) ([]int32, error)
}

// firstFitPlacer is the default: lowest-numbered nodes with room, several
// tasks per node, straight from the engine's free vector.
type firstFitPlacer struct{}

func (firstFitPlacer) sync(*sim.Context) {}
func (firstFitPlacer) place(c *sim.Context, j *sim.JobRun, limit func(n, fit int) int, skip []uint64, out []int32) ([]int32, error) {
	return firstFit(c, j, limit, skip, out), nil
}

// pipelinePlacer runs a placement pipeline over a ledger it keeps in step
// with the engine: it books the jobs it places and gives back those that
// end. A job's JobRun.PlacerState is booked while it runs, or
// checkedOnEmpty while it waits and is known to fit the empty cluster.
type pipelinePlacer struct {
	pipe   *placement.Pipeline
	ledger *placement.Ledger
	// never checks, once per job that does not fit, whether it could fit
	// on the empty cluster: the filters alone, no selection state touched.
	never *placement.Pipeline
	empty *placement.Ledger
	// ending is the task of a job being given back, rebuilt from its
	// JobRun: a running job keeps no task of its own (one allocation
	// fewer held per running job, and one cache miss fewer at its end).
	ending placement.Task
}

// booked marks a running job whose tasks are booked in the ledger, on
// JobRun.Nodes; checkedOnEmpty a waiting job that fits the empty cluster.
var booked, checkedOnEmpty = new(int8), new(int8)

func newPipelinePlacer(c *sim.Cluster, p *placement.Pipeline) *pipelinePlacer {
	pp := &pipelinePlacer{
		pipe:   p,
		ledger: placement.NewLedger(c),
		never:  &placement.Pipeline{Filters: p.Filters, Stats: &placement.Stats{}},
		empty:  placement.NewPermissiveLedger(c), // the empty cluster, shortcomings cancelled
	}
	// A job runs on the nodes placed for it (the schedulers start it on
	// them at once), and JobRun.Nodes keeps them until it runs again.
	pp.ledger.ForgetPlacements()
	return pp
}

func (pp *pipelinePlacer) sync(c *sim.Context) {
	for _, n := range c.NodeChanges() {
		pp.ledger.SetOffline(int(n), !c.NodeOnline(int(n)))
	}
	for _, j := range c.Ended() { // ended, or stopped and queued again
		if j.PlacerState == booked {
			// As place built it; the ledger reads the request, traits and key.
			pp.ending = placement.Task{Key: j.Seq, Job: j.Job, Need: j.Needs(), Immune: j.Immune()}
			pp.ledger.ReleaseNodes(&pp.ending, j.Nodes)
			pp.ending.Job = nil
			j.PlacerState = nil
		}
	}
}

func (pp *pipelinePlacer) place(c *sim.Context, j *sim.JobRun, limit func(n, fit int) int, _ []uint64, out []int32) ([]int32, error) {
	t := &placement.Task{Key: j.Seq, Job: j.Job, Need: j.Needs(), Immune: j.Immune(), At: c.Now(), Reason: placeReason(j)}
	nodes, reason := pp.pipe.PlaceJob(pp.ledger, t, j.Job.Tasks, limit, out)
	if nodes != nil {
		j.PlacerState = booked
		return nodes, nil
	}
	if pp.pipe.Fatal != nil {
		return nil, fmt.Errorf("job %s: %w", j.Job.ID, pp.pipe.Fatal)
	}
	if pp.pipe.Rejection != "" {
		return nil, c.Reject(j, reason)
	}
	if j.PlacerState == checkedOnEmpty {
		return nil, nil
	}
	probe := &placement.Task{Key: -1 - j.Seq, Job: j.Job, Need: j.Needs(), Immune: j.Immune()}
	fits, reason := pp.never.PlaceJob(pp.empty, probe, j.Job.Tasks, nil, nil)
	if fits != nil {
		pp.empty.Release(probe)
		j.PlacerState = checkedOnEmpty
		return nil, nil
	}
	return nil, c.Reject(j, "unschedulable on the empty cluster: "+reason)
}

// placeReason is LXD's request reason for j: "new", or why it is being
// placed again.
func placeReason(j *sim.JobRun) string {
	if j.Requeued != "" {
		return j.Requeued
	}
	return "new"
}
