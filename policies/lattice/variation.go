package lattice

// Which factors can change a schedule. A pass orders the queue by
// Σ wᵢ·fᵢ; a factor whose value is the same for every job of the pass
// adds the same wᵢ·fᵢ to every score and leaves the order as it is,
// whatever wᵢ (up to rounding in the last bit), so in such a pass its
// weight changes nothing. Backlog pressure (f₆) and energy (f₇) are
// global signals, equal for every job by definition; on a trace without
// priorities, data-readiness or checkpoint labels, f₁, f₅ and f₈ are
// constants too; and f₄ is 0 for every job on a cluster of one topology
// group. The exception is a pass that ranks jobs under different profiles
// (queue_profiles): a weight applies to one profile's jobs only, so a
// constant but nonzero factor shifts them against the others.
//
// FactorVariation counts, over a run, the passes in which each factor
// could change the order: a factor that never did is inert for the run,
// and searching its weight (tune) is searching nothing.

// FactorVariation is, over the passes of a run that ranked two jobs or
// more, how many had each factor take two values (or a nonzero value
// under two profiles).
type FactorVariation struct {
	Passes int64
	Varied [NumFactors]int64
}

// Add sums two counts (runs of an experiment).
func (v *FactorVariation) Add(o FactorVariation) {
	v.Passes += o.Passes
	for f := range v.Varied {
		v.Varied[f] += o.Varied[f]
	}
}

// Inert lists the factors that varied in no pass, in f₁…f₉ order; none
// when no pass ranked two jobs (nothing was measured).
func (v FactorVariation) Inert() []Factor {
	if v.Passes == 0 {
		return nil
	}
	var out []Factor
	for f, n := range v.Varied {
		if n == 0 {
			out = append(out, Factor(f))
		}
	}
	return out
}

// Variation returns the factor variation measured so far.
func (s *Scheduler) Variation() FactorVariation { return s.variation }

// measureVariation books one pass's ranking.
func (s *Scheduler) measureVariation(ranked []Ranked) {
	if len(ranked) < 2 {
		return
	}
	s.variation.Passes++
	first := &ranked[0]
	var varied [NumFactors]bool
	mixed := false
	for i := 1; i < len(ranked); i++ {
		r := &ranked[i]
		mixed = mixed || r.Profile != first.Profile
		for f := range varied {
			varied[f] = varied[f] || r.Factors[f] != first.Factors[f]
		}
	}
	for f := range varied {
		if varied[f] || (mixed && anyNonzero(ranked, Factor(f))) {
			s.variation.Varied[f]++
		}
	}
}

func anyNonzero(ranked []Ranked, f Factor) bool {
	for i := range ranked {
		if ranked[i].Factors[f] != 0 {
			return true
		}
	}
	return false
}
