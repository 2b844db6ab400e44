package sim

import "strconv"

// This file replays a job whose tasks are independent (Job.IndependentTasks)
// as one job per task, so that each task starts as soon as it fits and has
// its own start and end in the outputs, one row per task.
//
// Task i of job ID becomes job "ID#i" (i from 0) with one task, the same
// submit time, request, traits and dependencies. The tasks stay one
// another's co-tasks for Fenzo's unique and balanced constraints: a task
// keeps the job's CotaskGroup, or, when the job has none, gets the job's
// ID as its group. A dependency that names the job itself ("ID") does not
// resolve, since no job of that id runs: a later job waits for a task by
// naming "ID#i".

// splitTasks returns the per-task jobs of j, in task order.
func splitTasks(j *Job) []*Job {
	tasks := make([]*Job, j.Tasks)
	group := j.CotaskGroup
	if group == "" {
		group = j.ID
	}
	for i := range tasks {
		t := *j
		t.ID = j.ID + "#" + strconv.Itoa(i)
		t.Tasks = 1
		t.IndependentTasks = false
		t.CotaskGroup = group
		tasks[i] = &t
	}
	return tasks
}
