package policies

import "github.com/schedsim/schedsim/sim"

// totalsAllow is a quick necessary condition for j to fit now: the cluster's
// free total of every resource j asks for covers all its tasks. It saves a
// scan of every node when the cluster is full, the common case in a busy
// trace.
func totalsAllow(c *sim.Context, j *sim.JobRun) bool {
	k := sim.Amount(j.Job.Tasks)
	for _, q := range j.Needs() {
		if q.Amt*k > c.TotalFree(int(q.Res)) {
			return false
		}
	}
	return true
}

// firstFit places j's tasks on the lowest-numbered nodes with room now,
// several tasks per node when they fit. limit, when not nil, caps how many
// tasks may go on node n; the nodes of bitset skip (may be nil) take none.
// It returns nil when j does not fit.
func firstFit(c *sim.Context, j *sim.JobRun, limit func(n int, fit int) int, skip []uint64, out []int32) []int32 {
	if !totalsAllow(c, j) {
		return nil
	}
	left := j.Job.Tasks
	out = out[:0]
	candidatesBut(c, j.Needs(), skip, func(n int) bool {
		k := c.TasksFitting(j, n, left)
		if k > 0 && limit != nil {
			k = limit(n, k)
		}
		for i := 0; i < k; i++ {
			out = append(out, int32(n))
		}
		left -= k
		return left > 0
	})
	if left > 0 {
		return nil
	}
	return out
}
