package script

import (
	"errors"

	"github.com/schedsim/schedsim/policies/placement"
)

// Attach installs s into pipeline p: its filter after p's filters, its
// scorer after p's scorers with the config's weight, and a Decider that
// runs instance_placement and reports the script's errors. A pipeline's
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
	if s.filter != nil {
		p.Filters = append(p.Filters, &Filter{s: s})
	}
	if s.score != nil {
		p.Scorers = append(p.Scorers, placement.Weighted{Scorer: &Scorer{s: s}, Weight: s.cfg.Weight})
	}
	p.Decider = &Decider{s: s, inner: p.Decider}
	return nil
}
