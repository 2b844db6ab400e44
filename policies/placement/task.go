package placement

import "github.com/schedsim/schedsim/sim"

// Task is one task to place: its job's compiled request and traits, and
// where the job's earlier tasks went (its co-tasks, for Fenzo's group
// constraints and aversion).
type Task struct {
	Key    int64    // identifies the job in the ledger (the engine's Seq)
	Job    *sim.Job // the trace's job: ID, traits
	Need   []sim.Need
	Immune []int32
	At     sim.Time // when the decision is made (for explanations)
	// Reason is why the job is being placed: "new", "evacuation" (its node
	// is drained) or "relocation" (its node failed), as LXD tells its
	// placement scriptlet.
	Reason string
	Index  int     // which of the job's tasks, from 0
	Co     []int32 // nodes of the job's tasks placed before this one
}

// traits returns the job's traits, never nil.
func (t *Task) traits() *sim.Traits {
	if t.Job == nil || t.Job.Traits == nil {
		return &noTraits
	}
	return t.Job.Traits
}

var noTraits sim.Traits
