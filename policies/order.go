package policies

import "github.com/schedsim/schedsim/sim"

// Order is a strict queue order: Less(a, b) says a goes before b.
type Order func(a, b *sim.JobRun) bool

// FCFS orders by submit time, then arrival (trace) order.
func FCFS(a, b *sim.JobRun) bool {
	if a.Job.Submit != b.Job.Submit {
		return a.Job.Submit < b.Job.Submit
	}
	return a.Seq < b.Seq
}

// SJF orders by estimated runtime (walltime, else runtime), then FCFS.
func SJF(a, b *sim.JobRun) bool {
	ea, eb := a.EstimatedRuntime(), b.EstimatedRuntime()
	if ea != eb {
		return ea < eb
	}
	return FCFS(a, b)
}
