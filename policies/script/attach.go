package script

import (
	"errors"

	"github.com/schedsim/schedsim/policies/placement"
)

// Attach installs s into pipeline p: its filter after p's filters, its
// scorer after p's scorers with the config's weight, and a Decider that
// runs instance_placement and reports the script's errors. With
// instance_placement, it also adds the scorer named ChoiceScorer, of
// weight 0, which marks in explanations the placements set_target made. A pipeline's
// existing Decider is kept as the fallback of a script without
// instance_placement; a script with one cannot replace it.
//
// Attach it to the pipeline the placer uses, after placement.Build: the
// placer's "can this job ever fit" probe copies p.Filters, so a script
// filter that rejects every node of the empty cluster rejects the job.
func Attach(p *placement.Pipeline, s *Script) error {
	if p == nil || s == nil {
		return errors.New("script: Attach needs a pipeline and a script")
	}
	if _, ok := p.Decider.(*Decider); ok {
		return errors.New("script: the pipeline already has a script")
	}
	if s.placement != nil && p.Decider != nil {
		return errors.New("script: the pipeline already has a decider; instance_placement cannot replace it")
	}
	// A pure script's rules may be cached by the score index (purity.go),
	// which the pipeline uses only when the Decider defers to it: never
	// with instance_placement, which makes its own choice.
	local := s.pure && s.placement == nil && p.Decider == nil
	if s.filter != nil {
		var f placement.Filter = &Filter{s: s}
		if local {
			f = localFilter{f.(*Filter)}
		}
		p.Filters = append(p.Filters, f)
	}
	if s.score != nil {
		var sc placement.Scorer = &Scorer{s: s}
		if local {
			sc = localScorer{sc.(*Scorer)}
		}
		p.Scorers = append(p.Scorers, placement.Weighted{Scorer: sc, Weight: s.cfg.Weight})
	}
	d := &Decider{s: s, inner: p.Decider, ownChoice: len(p.Scorers) > 0 || p.Select != nil}
	p.Decider = d
	if s.placement != nil {
		// Weight 0: it changes no score, it names the script's own
		// choices in explanations.
		p.Scorers = append(p.Scorers, placement.Weighted{Scorer: choiceScorer{d}, Weight: 0})
	}
	return nil
}
