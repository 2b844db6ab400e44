package placement

// Co-task groups (Fenzo's co-task getter). Fenzo evaluates its unique and
// balanced host-attribute constraints over a task's co-tasks, which its
// API obtains from a function: replicas of a service submitted as
// separate jobs are one another's co-tasks, not only the tasks of one job.
// A job's sim.Job.CotaskGroup names its group; the ledger keeps, per
// group, the nodes of the group's booked tasks (running, or placed in the
// job being placed now), and a task of the group sees them all as its
// co-tasks (Task.Co). A job without a group has its own earlier tasks as
// co-tasks, as before.

// cotaskGroup returns t's co-task group, "" for none.
func cotaskGroup(t *Task) string {
	if t.Job == nil {
		return ""
	}
	return t.Job.CotaskGroup
}

// Cotasks returns the nodes of the tasks of co-task group g booked in the
// ledger, one entry per task, in no particular but deterministic order.
// Read-only; valid until the next booking.
func (l *Ledger) Cotasks(g string) []int32 { return l.cotasks[g] }

// bookCotask adds (sign +1) or removes (−1) a task of t's group on node n.
func (l *Ledger) bookCotask(t *Task, n int, sign int32) {
	g := cotaskGroup(t)
	if g == "" {
		return
	}
	nodes := l.cotasks[g]
	if sign > 0 {
		if l.cotasks == nil {
			l.cotasks = map[string][]int32{}
		}
		l.cotasks[g] = append(nodes, int32(n))
		return
	}
	for i, m := range nodes {
		if int(m) == n {
			last := len(nodes) - 1
			nodes[i] = nodes[last]
			nodes = nodes[:last]
			break
		}
	}
	if len(nodes) == 0 {
		delete(l.cotasks, g)
	} else {
		l.cotasks[g] = nodes
	}
}

// coTasks returns what t's co-tasks are while the job's tasks in out are
// booked: the group's booked tasks, or, without a group, out itself.
func (l *Ledger) coTasks(t *Task, out []int32) []int32 {
	if g := cotaskGroup(t); g != "" {
		return l.cotasks[g]
	}
	return out
}
