package placement

import (
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// The filters in this file enforce what a job's traits demand. Every
// pipeline runs them after the fit filter, whatever its strategy, so a
// placed task always satisfies every hard constraint it carries. A task
// without traits passes them at no cost.

// traitFilters returns the always-on filters, in order.
func traitFilters() []Filter {
	return []Filter{online{}, selectorFilter{}, taintFilter{}, lxdFilter{}, constraintFilter{}, aversionFilter{}}
}

// keepIf keeps the candidates for which ok holds.
func keepIf(cands []int32, ok func(n int) bool) []int32 {
	k := 0
	for _, n := range cands {
		if ok(int(n)) {
			cands[k] = n
			k++
		}
	}
	return cands[:k]
}

// online rejects nodes that are down or drained (node events).
type online struct{}

func (online) Name() string { return "offline" }
func (online) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	if l.offline == nil {
		return cands
	}
	return keepIf(cands, func(n int) bool { return !l.offline[n] })
}

// selectorFilter is the k8s nodeSelector: every listed attribute must have
// the listed value.
type selectorFilter struct{}

func (selectorFilter) Name() string { return "selector" }
func (selectorFilter) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	for _, lb := range t.traits().Selector {
		want := l.attrs.valueID(lb.Key, lb.Value)
		if want < 0 {
			return cands[:0]
		}
		ids, _ := l.Attribute(lb.Key)
		cands = keepIf(cands, func(n int) bool { return ids[n] == want })
	}
	return cands
}

// taintFilter rejects nodes with a NoSchedule taint the task does not
// tolerate.
type taintFilter struct{}

func (taintFilter) Name() string { return "taint" }
func (taintFilter) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	if l.noSchedule == nil {
		return cands
	}
	tol := t.traits().Tolerations
	return keepIf(cands, func(n int) bool {
		return !l.noSchedule[n] || untolerated(l.Cluster.Nodes[n].Taints, tol, "NoSchedule") == 0
	})
}

// untolerated counts the taints of effect that no toleration covers.
func untolerated(taints []sim.Taint, tol []sim.Toleration, effect string) int {
	count := 0
next:
	for _, x := range taints {
		if x.Effect != effect {
			continue
		}
		for _, t := range tol {
			if t.Tolerates(x) {
				continue next
			}
		}
		count++
	}
	return count
}

// lxdFilter is LXD's candidate filtering: the node's "arch" attribute must
// match the job's architecture, and its "groups" attribute (comma-separated
// cluster groups) must include the job's member group.
type lxdFilter struct{}

func (lxdFilter) Name() string { return "architecture/group" }
func (lxdFilter) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	tr := t.traits()
	if tr.Architecture != "" {
		want := l.attrs.valueID("arch", tr.Architecture)
		ids, _ := l.Attribute("arch")
		cands = keepIf(cands, func(n int) bool { return ids[n] == want })
	}
	if tr.MemberGroup != "" {
		ids, values := l.Attribute("groups")
		cands = keepIf(cands, func(n int) bool { return inList(values[ids[n]], tr.MemberGroup) })
	}
	return cands
}

func inList(list, item string) bool {
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == item {
			return true
		}
	}
	return false
}

// constraintFilter applies the task's hard Fenzo constraints (fenzo.go).
// In a pipeline it reports each constraint's rejections under the
// constraint's own name ("unique-attribute zone"), and a unique constraint
// that has fewer values than co-tasks says so (constraintVerdict).
type constraintFilter struct{}

func (constraintFilter) Name() string { return "constraints" }
func (f constraintFilter) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	return f.keepNoting(l, t, cands, nil)
}

func (constraintFilter) keepNoting(l *Ledger, t *Task, cands []int32, p *Pipeline) []int32 {
	for i := range t.traits().Constraints {
		c := &t.traits().Constraints[i]
		if c.Soft || c.Kind == ExclusiveHost { // exclusive hosts: Ledger.Fits
			continue
		}
		before := len(cands)
		cands = keepIf(cands, func(n int) bool { return constraintHolds(l, t, c, n) })
		if p == nil {
			continue
		}
		p.reject(constraintRule(c), before-len(cands))
		if len(cands) == 0 {
			if why := constraintVerdict(l, t, c); why != "" {
				p.verdict(why)
			}
			break
		}
	}
	return cands
}

// aversionFilter is pylighthouse's aversion groups: a task prefers nodes
// holding no task of its groups; when no candidate is such a node, it
// keeps them all (the students share a house when there is only one).
type aversionFilter struct{}

func (aversionFilter) Name() string { return "aversion" }
func (aversionFilter) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	groups := t.traits().AversionGroups
	if len(groups) == 0 {
		return cands
	}
	clean := func(n int) bool {
		for _, g := range groups {
			if l.GroupCount(g, n) > 0 {
				return false
			}
		}
		return true
	}
	for _, n := range cands {
		if clean(int(n)) {
			return keepIf(cands, clean)
		}
	}
	return cands
}

// The job-constraint filters are node-local for a task without co-tasks
// (the score index's condition): each looks at one node and the task.
func (online) NodeLocal() bool           { return true }
func (selectorFilter) NodeLocal() bool   { return true }
func (taintFilter) NodeLocal() bool      { return true }
func (lxdFilter) NodeLocal() bool        { return true }
func (constraintFilter) NodeLocal() bool { return true }
func (aversionFilter) NodeLocal() bool   { return true } // the index skips tasks with aversion groups
