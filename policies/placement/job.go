package placement

import "fmt"

// PlaceJob places all tasks of a job, one after the other, each seeing
// where its co-tasks are (t.Co: the earlier tasks of the job, or, for a
// job of a co-task group, every booked task of the group, cotasks.go),
// and books them in the ledger. When a task finds no node it gives back
// the tasks already booked and returns nil and the reason. t describes every task (t.Index and t.Co are set
// here); tasks is how many. allow is as for Pipeline.Place, counted over
// the whole job: allow(n, k) is how many of the job's tasks node n may hold
// when k would fit.
func (p *Pipeline) PlaceJob(l *Ledger, t *Task, tasks int, allow func(n, fit int) int, out []int32) ([]int32, string) {
	out = out[:0]
	t.Co = l.coTasks(t, out)
	p.pending = p.pending[:0]
	var perNode func(n, fit int) int
	if allow != nil {
		perNode = func(n, fit int) int {
			already := 0
			for _, m := range out {
				if int(m) == n {
					already++
				}
			}
			return allow(n, already+fit) - already
		}
	}
	for i := 0; i < tasks; i++ {
		t.Index = i
		n := p.Place(l, t, perNode)
		if n < 0 {
			reason := "no node"
			switch {
			case p.Rejection != "":
				reason = p.Rejection
			case p.Stats != nil:
				reason = p.Stats.Reason(len(l.leaves))
			}
			if i > 0 {
				if l.forget {
					l.ReleaseNodes(t, out)
				} else {
					l.Release(t)
				}
				reason = fmt.Sprintf("task %d of %d: %s", i+1, tasks, reason)
			}
			return nil, reason
		}
		l.Take(t, n)
		out = append(out, int32(n))
		t.Co = l.coTasks(t, out)
	}
	if p.Explain != nil {
		for _, c := range p.pending {
			t.Index = c.index
			p.Explain(t, c.node, c.total, c.scores)
		}
	}
	return out, ""
}
