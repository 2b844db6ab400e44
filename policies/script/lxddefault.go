package script

import "github.com/schedsim/schedsim/policies/placement"

// When instance_placement returns None without calling set_target, LXD
// places the instance by its own default: the cluster member with the
// fewest instances. A pipeline that makes a choice of its own (a strategy
// with scorers or a selection, or a score() in the script) keeps making
// it; one that would only take the first candidate (first fit, which is
// not LXD's rule) gives way to LXD's default.

// fewestInstances returns the position in cands of the member running the
// fewest tasks, the first (lowest node index) on ties.
func fewestInstances(l *placement.Ledger, cands []int32) int {
	best := 0
	for i, n := range cands {
		if l.Tasks[n] < l.Tasks[cands[best]] {
			best = i
		}
	}
	return best
}

// ChoiceScorer is the name under which explanations (--explain) record
// the placements a script made itself.
const ChoiceScorer = "script"

// choiceScorer is a scorer of weight 0 in the pipeline, there only for
// explanations: it scores 1 on the node instance_placement chose for the
// task by set_target, 0 elsewhere (LXD's default or the pipeline chose).
type choiceScorer struct{ d *Decider }

func (choiceScorer) Name() string { return ChoiceScorer }
func (c choiceScorer) Score(l *placement.Ledger, t *placement.Task, cands []int32, out []float64) {
	ch := c.d.chosen
	for i, n := range cands {
		out[i] = 0
		if ch.set && ch.key == t.Key && ch.index == t.Index && ch.node == n {
			out[i] = 1
		}
	}
}

// scriptChoice is the node set_target chose for one task.
type scriptChoice struct {
	set   bool
	key   int64
	index int
	node  int32
}
