package script

import (
	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
)

// Decider is a script as the pipeline's placement.Decider. It runs
// instance_placement when the script defines it; either way it is where
// an error met by the script's filter or scorer becomes the job's
// rejection or the run's stop, since a Filter or a Scorer has no way to
// say so itself.
type Decider struct {
	s *Script
	// inner is a Decider the pipeline had before Attach, consulted when
	// the script has no instance_placement.
	inner placement.Decider
	// ownChoice says the pipeline chooses by scores or a selection of its
	// own; without one, instance_placement's None means LXD's default
	// (lxddefault.go).
	ownChoice bool
	// chosen is the node set_target chose for the task last decided.
	chosen scriptChoice
}

// Decide implements placement.Decider.
func (d *Decider) Decide(l *placement.Ledger, t *placement.Task, cands []int32, fallback func() int) placement.Decision {
	s := d.s
	if e := s.takePending(t); e != nil {
		return s.failure(e)
	}
	var dec placement.Decision
	switch {
	case s.placement != nil:
		d.chosen = scriptChoice{}
		lxd := fallback
		if !d.ownChoice {
			lxd = func() int { return fewestInstances(l, cands) }
		}
		dec = s.decide(l, t, cands, lxd)
		if dec.Err == nil && dec.Reject == "" && dec.Index >= 0 && s.cur.entry == EntryPlacement && s.cur.target >= 0 {
			d.chosen = scriptChoice{set: true, key: t.Key, index: t.Index, node: cands[dec.Index]}
		}
	case d.inner != nil:
		dec = d.inner.Decide(l, t, cands, fallback)
	default:
		dec = placement.Decision{Index: fallback()}
	}
	// The fallback ran the scorers: one may have failed.
	if e := s.takePending(t); e != nil && dec.Err == nil {
		return s.failure(e)
	}
	return dec
}

// Defers implements placement.Deferrer: without instance_placement and
// without a Decider of its own to consult, Decide takes the pipeline's
// choice unless the script's filter or scorer failed, so a pure script
// lets the pipeline answer from its score index. After a failure under
// the index it never defers again.
func (d *Decider) Defers(*placement.Task) bool {
	s := d.s
	return s.placement == nil && d.inner == nil && s.pure && !s.unindexed
}

// Indexed implements placement.Deferrer: the index's answer stands unless
// the script failed while the index re-scored. Then the pipeline places
// the task again by the full scan, whose Decide reports the error the
// scan meets first (in node order, as without the index), and the index
// is not used again: it holds the failed call's scores, and a failure
// that depends only on a node's state would not show again until that
// node changed.
func (d *Decider) Indexed(t *placement.Task, _ int) bool {
	s := d.s
	if s.takePending(t) == nil {
		return true
	}
	s.unindexed = true
	return false
}

// candidates is the candidate_members list for cands. One list serves
// every call: the script may change it (it is a plain list, as in LXD),
// but cannot keep it past the call, since module globals are frozen and
// a rejection value is turned into a string at once. A list left
// unchangeable (a call cut short inside a loop over it) is replaced.
func (s *Script) candidates(cands []int32) *starlark.List {
	if s.members == nil || s.members.Clear() != nil {
		s.members = starlark.NewList(make([]starlark.Value, 0, len(cands)))
	}
	for _, n := range cands {
		_ = s.members.Append(s.env.members[n])
	}
	return s.members
}

// decide calls instance_placement(request, candidate_members): a value
// other than None rejects the job with str(value) as the reason; else
// set_target's member is the choice, or, without set_target, fallback's
// (LXD's default or the pipeline's own, as Decide gives it).
func (s *Script) decide(l *placement.Ledger, t *placement.Task, cands []int32, fallback func() int) placement.Decision {
	s.bind(l, t, EntryPlacement, cands, -1)
	v, err := s.call(s.placement, s.requestValue(t), s.candidates(cands))
	target := s.cur.target
	if err != nil {
		return s.failure(err)
	}
	if v != starlark.None {
		reason := str(v)
		if reason == "" {
			reason = "script: instance_placement returned " + v.String()
		}
		return placement.Decision{Index: -1, Reject: reason}
	}
	if target >= 0 {
		for i, n := range cands {
			if int(n) == target {
				return placement.Decision{Index: i}
			}
		}
	}
	return placement.Decision{Index: fallback()}
}
