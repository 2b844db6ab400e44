package placement

import "github.com/schedsim/schedsim/sim"

// The fit filter runs on every node for every placement, so it has a
// short path for the common case, which gives the same answers as Fits.

// plainFit reports whether Fits reduces to "every listed resource has at
// least max(0, amount) free": a cluster without parents or negative
// amounts, a task without immunities, and no exclusive task anywhere.
func (l *Ledger) plainFit(t *Task) bool {
	return !l.Cluster.Special() && len(t.Immune) == 0 && l.exclusives == 0 && !isExclusive(t)
}

// fitting appends to out the nodes of from where one task of t fits, under
// plainFit's conditions.
func (l *Ledger) fitting(t *Task, from []int32, out []int32) []int32 {
	var buf [8]sim.Need
	need := buf[:0]
	for _, q := range t.Need {
		need = append(need, sim.Need{Res: q.Res, Amt: max(0, q.Amt)})
	}
	R, free := l.R, l.Free
next:
	for _, n := range from {
		base := int(n) * R
		for _, q := range need {
			if free[base+int(q.Res)] < q.Amt || free[base+int(q.Res)] < 0 {
				continue next
			}
		}
		out = append(out, n)
	}
	return out
}
