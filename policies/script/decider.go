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
		dec = s.decide(l, t, cands, fallback)
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

// decide calls instance_placement(request, candidate_members): a value
// other than None rejects the job with str(value) as the reason; else
// set_target's member is the choice, or, without set_target, the
// pipeline's own (fallback).
func (s *Script) decide(l *placement.Ledger, t *placement.Task, cands []int32, fallback func() int) placement.Decision {
	s.bind(l, t, EntryPlacement, cands, -1)
	members := make([]starlark.Value, len(cands))
	for i, n := range cands {
		members[i] = s.env.members[n]
	}
	v, err := s.call(s.placement, s.env.request(t), starlark.NewList(members))
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
