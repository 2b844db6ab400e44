package native

import "github.com/schedsim/schedsim/sim"

// CotaskLabel is the label that puts a job in a co-task group
// (sim.Job.CotaskGroup): jobs whose labels give it the same value are one
// another's co-tasks for Fenzo's unique and balanced attribute
// constraints, as replicas of one service.
//
//	{"id": "web-2", "submit_s": 0, "runtime_s": 600, "labels": {"cotask_group": "web"}, "constraints": [{"kind": "unique-attribute", "attribute": "zone"}]}
const CotaskLabel = "cotask_group"

// cotaskGroup returns the value of the CotaskLabel label, "" for none.
func cotaskGroup(labels []sim.Label) string {
	for _, l := range labels {
		if l.Key == CotaskLabel {
			return l.Value
		}
	}
	return ""
}

// markIndependent makes the tasks of a job that says gang: false and has
// several of them independent (sim.Job.IndependentTasks): each starts as
// it fits. Gang defaults to true, so only a trace that writes false gets
// this.
func markIndependent(j *sim.Job) {
	j.IndependentTasks = !j.Gang && j.Tasks > 1
}
