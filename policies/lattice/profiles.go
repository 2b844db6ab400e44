package lattice

import (
	"fmt"
	"sort"
	"strings"
)

// Weights are w₁…w₉, one per factor.
type Weights [NumFactors]float64

// Score is Σ wᵢ·fᵢ.
func (w *Weights) Score(f *Factors) float64 {
	var s float64
	for i := range w {
		s += w[i] * f[i]
	}
	return s
}

// Profile is a named weight vector and how the solver treats conformance.
type Profile struct {
	Name    string
	Weights Weights
	// RequireConformance makes "all nodes in one conformance group" a hard
	// constraint of node selection instead of a preference: the sensitive
	// profile, whose node claims are non-negotiable (seed, step 2a).
	RequireConformance bool
}

// The seed's weight table (w₁ priority, w₂ wait_time, w₃ fair_share,
// w₄ topology, w₅ data_ready, w₆ backlog, w₇ energy, w₈ checkpoint,
// w₉ conformance), and CostWeights::default(), the "balanced HPC" baseline
// that matches no named column.
var builtin = map[string]Profile{
	"hpc-batch":   {Name: "hpc-batch", Weights: Weights{0.15, 0.20, 0.20, 0.15, 0.10, 0.05, 0.00, 0.05, 0.10}},
	"ml-training": {Name: "ml-training", Weights: Weights{0.10, 0.10, 0.10, 0.25, 0.15, 0.05, 0.05, 0.10, 0.10}},
	"service":     {Name: "service", Weights: Weights{0.15, 0.05, 0.10, 0.05, 0.10, 0.05, 0.10, 0.10, 0.30}},
	"sensitive":   {Name: "sensitive", Weights: Weights{0.90, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.10}, RequireConformance: true},
	"interactive": {Name: "interactive", Weights: Weights{0.10, 0.30, 0.10, 0.00, 0.05, 0.15, 0.00, 0.00, 0.30}},
	"default":     {Name: "default", Weights: Weights{0.20, 0.20, 0.20, 0.15, 0.10, 0.05, 0.00, 0.00, 0.10}},
}

// DefaultProfile is the profile of a run that names none.
const DefaultProfile = "default"

// Builtin returns a named profile of the seed.
func Builtin(name string) (Profile, bool) {
	p, ok := builtin[name]
	return p, ok
}

// BuiltinNames lists the named profiles, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtin))
	for n := range builtin {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Profiles chooses each job's profile: by its Queue field when the queue
// has one, else the run's.
type Profiles struct {
	Run     Profile
	ByQueue map[string]Profile
}

// For returns the profile scoring queue q's jobs.
func (p *Profiles) For(queue string) *Profile {
	if pr, ok := p.ByQueue[queue]; ok {
		return &pr
	}
	return &p.Run
}

// NamedProfiles returns the run profile name plus per-queue assignments
// resolved against the built-in profiles and extra (user profiles).
func NamedProfiles(run string, queues map[string]string, extra map[string]Profile) (*Profiles, error) {
	lookup := func(name string) (Profile, bool) {
		if p, ok := extra[name]; ok {
			return p, true
		}
		return Builtin(name)
	}
	var errs []string
	if run == "" {
		run = DefaultProfile
	}
	ps := &Profiles{ByQueue: map[string]Profile{}}
	var ok bool
	if ps.Run, ok = lookup(run); !ok {
		errs = append(errs, fmt.Sprintf("unknown profile %q (known: %s)", run, strings.Join(known(extra), ", ")))
	}
	qs := make([]string, 0, len(queues))
	for q := range queues {
		qs = append(qs, q)
	}
	sort.Strings(qs)
	for _, q := range qs {
		p, ok := lookup(queues[q])
		if !ok {
			errs = append(errs, fmt.Sprintf("queue %q: unknown profile %q (known: %s)", q, queues[q], strings.Join(known(extra), ", ")))
			continue
		}
		ps.ByQueue[q] = p
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return ps, nil
}

func known(extra map[string]Profile) []string {
	names := BuiltinNames()
	for n := range extra {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
