package native

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

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

// writtenGang is the gang value a writer writes for j: the one from which
// the reader rebuilds the same job. A job of several tasks is written
// gang: false exactly when its tasks are independent. One whose trace
// says it is not a gang yet whose tasks start together all the same
// (Alibaba's instances: Gang false, IndependentTasks false) is written
// gang: true, as it replays: the format has no "not a gang, but started
// together", and nothing but the reader looks at Gang. A single task is
// never split, so a one-task job keeps its Gang.
func writtenGang(j *sim.Job) bool {
	if j.Tasks > 1 {
		return !j.IndependentTasks
	}
	return j.Gang
}

// checkCotask refuses a job whose co-task group is not what its labels
// say: the format carries the group as the CotaskLabel label only, so
// such a job would not read back the same.
func checkCotask(j *sim.Job) error {
	var labels []sim.Label
	if j.Traits != nil {
		labels = j.Traits.Labels
	}
	if g := cotaskGroup(labels); g != j.CotaskGroup {
		return fmt.Errorf("labels.%s: %q, but the job's co-task group is %q (the format carries the group as that label)", CotaskLabel, g, j.CotaskGroup)
	}
	return nil
}
