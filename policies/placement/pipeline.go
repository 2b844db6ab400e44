package placement

import (
	"fmt"
	"math"
	"math/bits"
)

// Filter is a hard rule. Keep returns the candidates (in the order given)
// on which task t may land, reusing cands' storage; the others are rejected
// for the reason Name names.
type Filter interface {
	Name() string
	Keep(l *Ledger, t *Task, cands []int32) []int32
}

// Scorer is a soft rule. Score writes each candidate's score to out, in
// [0, 1], higher is better.
type Scorer interface {
	Name() string
	Score(l *Ledger, t *Task, cands []int32, out []float64)
}

// Weighted is a scorer and its weight (≥ 0).
type Weighted struct {
	Scorer
	Weight float64
}

// Pipeline places tasks: the fit filter (resources, exclusive hosts), then
// Filters in order, then the weighted sum of Scorers, then Select. The zero
// Select takes the best score, ties to the lowest node index.
type Pipeline struct {
	Name    string
	Filters []Filter
	Scorers []Weighted
	// Limit, when > 0, stops looking after Limit feasible candidates,
	// visited from a rotating start (Nomad's max(2, ⌈log₂ n⌉)).
	Limit int
	// Select, when not nil, picks among the scored candidates instead of
	// the best score (round-robin, random).
	Select Selector

	cands   []int32 // feasible's result, reused
	found   []int32 // visit's result, reused: feasible fills cands meanwhile
	scores  []float64
	partial []float64
	cursor  int // where a limited search starts next
	// Stats, when not nil, receives what each rule did (explanations).
	Stats *Stats
	// Explain, when not nil, hears every choice: the task, the node, its
	// total score and each scorer's own score (for --explain).
	Explain func(t *Task, node int, total float64, scores []float64)
	pending []choice // a job's choices, told to Explain once all its tasks fit

	// Decider, when not nil, makes the final choice among the scored
	// candidates, or rejects the job (an LXD placement scriptlet). Its
	// fallback is the pipeline's own choice.
	Decider Decider
	// Rejection holds why the last Place rejected the job outright (a
	// Decider's verdict), "" otherwise; Fatal, an error that must stop
	// the run.
	Rejection string
	Fatal     error

	// NoIndex turns the score index off (index.go), for tests that compare
	// it with the plain scan.
	NoIndex bool
	indexes []*scoreIndex
	local   int8 // 0 unknown, 1 every rule is NodeLocal, −1 not
}

// choice is one task's placement awaiting Explain.
type choice struct {
	index, node int
	total       float64
	scores      []float64
}

// Plain reports whether the pipeline is first fit with nothing more: no
// scorer, no selection, no candidate limit, no strategy filter (the
// job-constraint filters apart).
func (p *Pipeline) Plain() bool {
	return len(p.Scorers) == 0 && p.Select == nil && p.Decider == nil && p.Limit == 0 && len(p.Filters) <= len(traitFilters())
}

// Decider decides among the candidates that passed every filter (in node
// order): it returns the position of its choice, or calls fallback for the
// pipeline's own choice, or rejects the job with a reason, or fails with
// an error that stops the run. A position of −1 places nowhere (the job
// waits).
type Decider interface {
	Decide(l *Ledger, t *Task, cands []int32, fallback func() int) Decision
}

// Deferrer is a Decider that, for some tasks, makes no choice of its own:
// when Defers(t) is true, Decide would take the pipeline's choice
// (fallback) unless a rule of its own met an error to report (a script's
// scorer). The pipeline may then answer from the score index without
// calling Decide; it tells Indexed the answer (a node, or −1), and when
// Indexed returns false it places t again by the full scan, calling
// Decide.
type Deferrer interface {
	Decider
	Defers(t *Task) bool
	Indexed(t *Task, node int) bool
}

// Decision is a Decider's verdict.
type Decision struct {
	Index  int
	Reject string
	Err    error
}

// Selector picks one of the candidates (in node order) given their total
// scores, and returns its position, or −1 to place nowhere.
type Selector interface {
	Pick(l *Ledger, t *Task, cands []int32, scores []float64) int
}

// Stats counts, for the last placement attempt, how many nodes each rule
// rejected, and which node was chosen (−1 for none). Verdict, when set,
// is a rule's own account of why no node can pass it, which says more
// than node counts ("unique-attribute zone: 3 values, 4 co-tasks").
type Stats struct {
	Rejected []Rejection
	Chosen   int32
	Verdict  string
}

// notingFilter is a Filter that tells the pipeline itself what it
// rejected, under names of its own (one per constraint) and with a
// verdict when it can give one.
type notingFilter interface {
	keepNoting(l *Ledger, t *Task, cands []int32, p *Pipeline) []int32
}

// Rejection is how many nodes one rule turned away.
type Rejection struct {
	Rule  string
	Nodes int
}

// Reason says why no node was found: which rules rejected how many nodes,
// as in "0/12 nodes: 8 fit (resources), 4 selector".
func (s *Stats) Reason(total int) string {
	if s.Verdict != "" {
		return s.Verdict
	}
	msg := fmt.Sprintf("0/%d nodes", total)
	sep := ": "
	for _, r := range s.Rejected {
		if r.Nodes > 0 {
			msg += fmt.Sprintf("%s%d %s", sep, r.Nodes, r.Rule)
			sep = ", "
		}
	}
	return msg
}

// FitRule names the built-in filter for resources and exclusive hosts.
const FitRule = "fit (resources)"

// Place chooses a node for t, or returns −1 when no node passes the
// filters. It does not book the task (see PlaceJob). allow, when not nil,
// caps how many such tasks node n may take (EASY's reservation); it is
// given the count that fits and returns the count allowed.
func (p *Pipeline) Place(l *Ledger, t *Task, allow func(n, fit int) int) int {
	if p.Stats != nil {
		p.Stats.Rejected = p.Stats.Rejected[:0]
		p.Stats.Chosen = -1
		p.Stats.Verdict = ""
	}
	p.Rejection, p.Fatal = "", nil
	if p.indexable(l, t, allow) {
		if n := p.placeIndexed(l, t); n >= 0 {
			if p.Stats != nil {
				p.Stats.Chosen = int32(n)
			}
			return n
		}
		// Nothing fits, and the scan below says which rules turned nodes
		// away; or the Decider would not take the index's answer, and the
		// scan calls it.
	}
	var cands []int32
	// The aversion filter compares all candidates (it keeps them all when
	// none is free of the task's groups), so such tasks see every node.
	whole := len(t.traits().AversionGroups) > 0
	switch {
	case whole:
		cands = p.feasible(l, t, allow, l.leaves)
	case p.Limit > 0 && p.Limit < len(l.leaves):
		cands = p.limited(l, t, allow)
	case len(p.Scorers) == 0 && p.Select == nil && p.Decider == nil:
		cands = p.visit(l, t, allow, 0, 1) // first fit
	default:
		cands = p.feasible(l, t, allow, l.leaves)
	}
	if len(cands) == 0 {
		return -1
	}
	var i int
	if p.Decider != nil {
		fellBack := false
		d := p.Decider.Decide(l, t, cands, func() int { fellBack = true; return p.pick(l, t, cands) })
		switch {
		case d.Err != nil:
			p.Fatal = d.Err
			return -1
		case d.Reject != "":
			p.Rejection = d.Reject
			p.reject("decider", len(cands))
			return -1
		}
		i = d.Index
		if p.Explain != nil && !fellBack && i >= 0 {
			// The Decider chose by itself (a script's set_target): the
			// explanation records its choice with the scorers' view of it.
			p.explainChoice(l, t, int(cands[i]), p.totals(l, t, cands[i:i+1])[0])
		}
	} else {
		i = p.pick(l, t, cands)
	}
	if i < 0 {
		p.reject("selection", len(cands))
		return -1
	}
	if p.Stats != nil {
		p.Stats.Chosen = cands[i]
	}
	return int(cands[i])
}

// feasible runs the fit filter and the Filters over from.
func (p *Pipeline) feasible(l *Ledger, t *Task, allow func(n, fit int) int, from []int32) []int32 {
	cands := p.cands[:0]
	if allow == nil && l.plainFit(t) {
		cands = l.fitting(t, from, cands)
	} else {
		for _, n := range from {
			k := l.Fits(t, int(n), 1)
			if k > 0 && allow != nil {
				k = allow(int(n), k)
			}
			if k > 0 {
				cands = append(cands, n)
			}
		}
	}
	p.reject(FitRule, len(from)-len(cands))
	for _, f := range p.Filters {
		if nf, ok := f.(notingFilter); ok {
			cands = nf.keepNoting(l, t, cands, p)
			if len(cands) == 0 {
				break
			}
			continue
		}
		before := len(cands)
		cands = f.Keep(l, t, cands)
		p.reject(f.Name(), before-len(cands))
		if len(cands) == 0 {
			break
		}
	}
	p.cands = cands
	return cands
}

// limited visits the leaves in blocks from the rotating cursor until Limit
// candidates pass, then advances the cursor past the first of them, so
// successive placements spread their search over the cluster.
func (p *Pipeline) limited(l *Ledger, t *Task, allow func(n, fit int) int) []int32 {
	found := p.visit(l, t, allow, p.cursor%len(l.leaves), p.Limit)
	if len(found) > 0 {
		p.cursor = l.leafPosition(found[0]) + 1
	}
	sortNodes(found)
	return found
}

// visit runs the filters over the leaves in blocks, from position start
// and wrapping around, until want candidates pass or every leaf has been
// seen; it returns at most want, in visiting order. Plain first fit uses
// it with want 1 from position 0, so it stops at the first node that
// fits instead of filtering them all.
//
// The answer does not depend on the block size, only the work does: a
// block is sized to what is still wanted at the share of nodes that
// passed so far (filtering 64 nodes for a candidate limit of 14 that the
// first 20 meet was most of a limited placement's cost). With Stats the
// blocks stay at 64 nodes, so the rejection counts are those of whole
// blocks, as they always were.
func (p *Pipeline) visit(l *Ledger, t *Task, allow func(n, fit int) int, start, want int) []int32 {
	leaves := l.leaves
	found := p.found[:0]
	const block = 64
	var stats []Rejection
	for seen := 0; seen < len(leaves) && len(found) < want; {
		size := block
		if p.Stats == nil {
			size = blockFor(want-len(found), seen, len(found))
		}
		// A block stops at the end of the list; the next one wraps to
		// the start, until every leaf has been seen once.
		lo := (start + seen) % len(leaves)
		hi := min(lo+size, len(leaves), lo+len(leaves)-seen)
		seen += hi - lo
		got := p.feasible(l, t, allow, leaves[lo:hi])
		found = append(found, got...)
		if p.Stats != nil {
			stats = mergeRejections(stats, p.Stats.Rejected)
			p.Stats.Rejected = p.Stats.Rejected[:0]
		}
	}
	if p.Stats != nil {
		p.Stats.Rejected = stats
	}
	p.found = found
	if len(found) > want {
		found = found[:want]
	}
	return found
}

// blockFor sizes visit's next block: need more candidates are wanted and
// found of the seen nodes passed. The first block allows for a quarter of
// the nodes failing, the next ones for the share seen so far plus a
// quarter; at most 64 nodes, and 64 when none has passed yet.
func blockFor(need, seen, found int) int {
	const most = 64
	switch {
	case seen == 0:
		return min(most, need+need/4+1)
	case found == 0:
		return most
	}
	return min(most, max(need, (need*seen*5/4)/found+1))
}

// leafPosition returns where node n is in the sorted leaves: n itself
// when every node is a leaf.
func (l *Ledger) leafPosition(n int32) int {
	leaves := l.leaves
	if len(leaves) == len(l.Tasks) {
		return int(n)
	}
	lo, hi := 0, len(leaves)
	for lo < hi {
		m := (lo + hi) / 2
		if leaves[m] < n {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func mergeRejections(into, add []Rejection) []Rejection {
next:
	for _, a := range add {
		for i := range into {
			if into[i].Rule == a.Rule {
				into[i].Nodes += a.Nodes
				continue next
			}
		}
		into = append(into, a)
	}
	return into
}

func (p *Pipeline) reject(rule string, nodes int) {
	if p.Stats != nil {
		p.Stats.Rejected = append(p.Stats.Rejected, Rejection{rule, nodes})
	}
}

// verdict records a rule's account of why no node passes it (Stats.Verdict).
func (p *Pipeline) verdict(why string) {
	if p.Stats != nil && p.Stats.Verdict == "" {
		p.Stats.Verdict = why
	}
}

// pick scores the candidates and selects one.
func (p *Pipeline) pick(l *Ledger, t *Task, cands []int32) int {
	if len(p.Scorers) == 0 && p.Select == nil {
		if p.Explain != nil {
			p.pending = append(p.pending, choice{index: t.Index, node: int(cands[0])})
		}
		return 0 // first fit: no need to score
	}
	scores := p.totals(l, t, cands)
	var i int
	if p.Select != nil {
		i = p.Select.Pick(l, t, cands, scores)
	} else {
		i = best(scores)
	}
	if p.Explain != nil && i >= 0 {
		p.explainChoice(l, t, int(cands[i]), scores[i])
	}
	return i
}

// totals returns the weighted sum of the scorers for each candidate,
// quantized (quantize) so that the scan and the index compare equal
// totals equal.
func (p *Pipeline) totals(l *Ledger, t *Task, cands []int32) []float64 {
	p.scores = resize(p.scores, len(cands))
	clear(p.scores)
	for _, s := range p.Scorers {
		if s.Weight == 0 {
			continue
		}
		p.partial = resize(p.partial, len(cands))
		s.Score(l, t, cands, p.partial)
		for i, v := range p.partial {
			p.scores[i] += s.Weight * v
		}
	}
	for i, v := range p.scores {
		p.scores[i] = quantize(v)
	}
	return p.scores
}

// quantize rounds a total to 1e-9: float rounding in a weighted sum never
// decides between nodes that score the same.
func quantize(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// explainChoice records the chosen node's scores, per scorer, for Explain.
func (p *Pipeline) explainChoice(l *Ledger, t *Task, n int, total float64) {
	c := choice{index: t.Index, node: n, total: total}
	one := []int32{int32(n)}
	out := []float64{0}
	for _, s := range p.Scorers {
		s.Score(l, t, one, out)
		c.scores = append(c.scores, out[0])
	}
	p.pending = append(p.pending, c)
}

// best returns the position of the highest (quantized) score, the first
// on ties.
func best(scores []float64) int {
	b := 0
	for i, v := range scores {
		if v > scores[b] {
			b = i
		}
	}
	return b
}

func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// sortNodes sorts a short list of node indices (insertion sort: the
// limited candidate list holds a handful).
func sortNodes(a []int32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// CandidateLimit is Nomad's max(2, ⌈log₂ n⌉) for a cluster of n nodes.
func CandidateLimit(n int) int {
	if n <= 1 {
		return 2
	}
	return max(2, bits.Len(uint(n-1)))
}
