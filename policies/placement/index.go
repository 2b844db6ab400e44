package placement

import (
	"fmt"
	"math"
	"strings"
)

// The score index makes a full-scan placement cost what changed, not the
// cluster's size. A task's total score on a node depends only on that
// node's state when every rule is node-local (NodeLocal), the task has no
// co-tasks placed yet and no aversion group (the aversion filter looks at
// all candidates at once), and the pipeline has no Decider or one that
// defers to it (Deferrer). For such a task shape the pipeline keeps every
// leaf's total score (−∞ when the node is filtered out) in a max segment
// tree; the ledger logs every node whose state changes, and the next
// placement of the same shape re-scores only those nodes. The answer is
// the full scan's: the highest total, ties to the lowest node index
// (totals are quantized the same way on both paths).

// NodeLocal is implemented by filters and scorers whose verdict on a node
// depends only on that node's state in the ledger and on the task (for a
// task with no co-tasks): the score index may cache it.
type NodeLocal interface{ NodeLocal() bool }

// maxIndexes bounds the task shapes indexed at once.
const maxIndexes = 16

type scoreIndex struct {
	key    string
	ledger *Ledger   // the ledger it indexes: a pipeline may serve several
	pos    int64     // ledger change-log position it reflects
	tree   []float64 // max segment tree over leaf positions; leaves at [size, 2·size)
	size   int
}

// indexable reports whether t's placement can use the score index.
func (p *Pipeline) indexable(l *Ledger, t *Task, allow func(n, fit int) int) bool {
	if p.Decider != nil {
		if d, ok := p.Decider.(Deferrer); !ok || !d.Defers(t) {
			return false
		}
	}
	if p.NoIndex || p.Limit > 0 || p.Select != nil || allow != nil || len(t.Co) > 0 || l.Cluster.Special() ||
		len(t.traits().AversionGroups) > 0 || len(p.Scorers) == 0 {
		return false
	}
	if p.local == 0 {
		p.local = -1
		if allLocal(p) {
			p.local = 1
		}
	}
	return p.local > 0
}

func allLocal(p *Pipeline) bool {
	for _, f := range p.Filters {
		if nl, ok := f.(NodeLocal); !ok || !nl.NodeLocal() {
			return false
		}
	}
	for _, s := range p.Scorers {
		if nl, ok := s.Scorer.(NodeLocal); !ok || !nl.NodeLocal() {
			return false
		}
	}
	return true
}

// shapeKey identifies tasks that score alike: the request, immunities and
// traits by content.
func shapeKey(t *Task) string {
	var b strings.Builder
	for _, q := range t.Need {
		fmt.Fprintf(&b, "%d:%d,", q.Res, q.Amt)
	}
	fmt.Fprintf(&b, "|%v", t.Immune)
	if t.Job != nil && t.Job.Traits != nil {
		fmt.Fprintf(&b, "|%v", *t.Job.Traits)
	}
	return b.String()
}

// placeIndexed returns the best node for t through the index, or −1 when
// none passes the filters or the Decider (a Deferrer) does not accept the
// answer.
func (p *Pipeline) placeIndexed(l *Ledger, t *Task) int {
	idx := p.indexFor(l, t)
	d, _ := p.Decider.(Deferrer)
	if idx.tree[1] == math.Inf(-1) {
		if d != nil {
			d.Indexed(t, -1)
		}
		return -1
	}
	i := 1
	for i < idx.size {
		if idx.tree[2*i] >= idx.tree[2*i+1] {
			i = 2 * i
		} else {
			i = 2*i + 1
		}
	}
	n := int(l.leaves[i-idx.size])
	if d != nil && !d.Indexed(t, n) {
		return -1
	}
	if p.Explain != nil {
		p.explainChoice(l, t, n, idx.tree[i])
	}
	return n
}

// indexFor returns t's shape index, brought up to date.
func (p *Pipeline) indexFor(l *Ledger, t *Task) *scoreIndex {
	key := shapeKey(t)
	var idx *scoreIndex
	for _, x := range p.indexes {
		if x.key == key && x.ledger == l {
			idx = x
			break
		}
	}
	if idx == nil || idx.pos < l.logStart {
		if idx == nil {
			if len(p.indexes) == maxIndexes {
				p.indexes = p.indexes[1:]
			}
			idx = &scoreIndex{key: key, ledger: l}
			p.indexes = append(p.indexes, idx)
		}
		p.rebuild(l, t, idx)
		return idx
	}
	for _, n := range l.changes[idx.pos-l.logStart:] {
		p.rescore(l, t, idx, n)
	}
	idx.pos = l.logStart + int64(len(l.changes))
	return idx
}

// rebuild scores every leaf.
func (p *Pipeline) rebuild(l *Ledger, t *Task, idx *scoreIndex) {
	idx.size = 1
	for idx.size < len(l.leaves) {
		idx.size *= 2
	}
	idx.tree = make([]float64, 2*idx.size)
	for i := range idx.tree {
		idx.tree[i] = math.Inf(-1)
	}
	stats := p.Stats
	p.Stats = nil
	cands := p.feasible(l, t, nil, l.leaves)
	totals := p.totals(l, t, cands)
	p.Stats = stats
	for i, n := range cands {
		idx.tree[idx.size+int(n)] = totals[i] // no parents: leaf position = node index
	}
	for i := idx.size - 1; i >= 1; i-- {
		idx.tree[i] = max(idx.tree[2*i], idx.tree[2*i+1])
	}
	idx.pos = l.logStart + int64(len(l.changes))
}

// rescore updates node n's total.
func (p *Pipeline) rescore(l *Ledger, t *Task, idx *scoreIndex, n int32) {
	stats := p.Stats
	p.Stats = nil
	one := [1]int32{n}
	cands := p.feasible(l, t, nil, one[:])
	v := math.Inf(-1)
	if len(cands) == 1 {
		v = p.totals(l, t, cands)[0]
	}
	p.Stats = stats
	i := idx.size + int(n)
	idx.tree[i] = v
	for i /= 2; i >= 1; i /= 2 {
		idx.tree[i] = max(idx.tree[2*i], idx.tree[2*i+1])
	}
}
