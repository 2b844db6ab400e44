package lattice

import (
	"math"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// Factor indexes the nine score components, in the seed's order (f₁…f₉).
type Factor int

// The factors. Their names are the keys of user profiles.
const (
	FPriority Factor = iota
	FWaitTime
	FFairShare
	FTopology
	FDataReady
	FBacklog
	FEnergy
	FCheckpoint
	FConformance
	NumFactors
)

var factorNames = [NumFactors]string{"priority", "wait_time", "fair_share", "topology", "data_ready", "backlog", "energy", "checkpoint", "conformance"}

func (f Factor) String() string { return factorNames[f] }

// FactorByName returns the factor called name (as in user profiles).
func FactorByName(name string) (Factor, bool) {
	for i, n := range factorNames {
		if n == name {
			return Factor(i), true
		}
	}
	return 0, false
}

// FactorNames lists the factor names in f₁…f₉ order.
func FactorNames() []string { return append([]string(nil), factorNames[:]...) }

// Factors are one job's nine factor values, f₁…f₉.
type Factors [NumFactors]float64

// MaxPriorityClass is the highest priority tier (the seed's 0–10 scale).
const MaxPriorityClass = 10

// PriorityClass is f₁: the job's static tier clamped to 0…10 and divided by
// 10, so the highest tier (sensitive claims) contributes its full weight.
// Traces whose priorities are outside the range saturate rather than
// dominate the other factors.
func PriorityClass(priority int) float64 {
	return float64(min(max(priority, 0), MaxPriorityClass)) / MaxPriorityClass
}

// WaitFactor is f₂ = ln(1 + wait / reference): increasing with time in
// queue (anti-starvation), the log keeping long waits from dominating. A
// reference ≤ 0 falls back to one hour; a negative wait counts as zero.
func WaitFactor(wait, reference sim.Time) float64 {
	if reference <= 0 {
		reference = DefaultReferenceWait
	}
	if wait <= 0 {
		return 0
	}
	return math.Log1p(float64(wait) / float64(reference))
}

// DefaultReferenceWait is the seed's default reference_wait: one hour.
const DefaultReferenceWait = 3600 * sim.Second

// FairShareDeficit is f₃ = max(0, target − actual) / target: 1 for a tenant
// that has used nothing, 0 at or above its share. A tenant without a
// target share (target ≤ 0) has no deficit.
func FairShareDeficit(target, actual float64) float64 { return sim.FairShareDeficit(target, actual) }

// TopologyFitness is f₄ = 1 − groups_needed / max_groups_available. A job
// that cannot be placed now needs every available group (0); with no group
// available the factor is 0 too.
func TopologyFitness(groupsNeeded, groupsAvailable int) float64 {
	if groupsAvailable <= 0 || groupsNeeded <= 0 {
		return 0
	}
	return 1 - float64(min(groupsNeeded, groupsAvailable))/float64(groupsAvailable)
}

// Job labels read by f₅ and f₈ (the engine's job model has no such fields).
const (
	LabelDataReadiness     = "data_readiness"     // fraction of input on the hot tier, 0…1
	LabelCheckpointMinutes = "checkpoint_minutes" // estimated checkpoint time, minutes
)

// UnknownDataReadiness is f₅ for a job that states no data requirements:
// the seed's neutral 0.5.
const UnknownDataReadiness = 0.5

// DataReadiness is f₅: the job's data_readiness label clamped to [0, 1],
// or 0.5 when it has none (or an unreadable one).
func DataReadiness(j *sim.Job) float64 {
	v, ok := label(j, LabelDataReadiness)
	if !ok {
		return UnknownDataReadiness
	}
	return min(max(v, 0), 1)
}

// BacklogPressure is f₆ = min(1, queued / running) node-hours: a global
// urgency signal, the same for every job. An idle cluster with a queue is
// under full pressure; an empty queue under none.
func BacklogPressure(queuedNodeHours, runningNodeHours float64) float64 {
	if queuedNodeHours <= 0 {
		return 0
	}
	if runningNodeHours <= 0 {
		return 1
	}
	return min(1, queuedNodeHours/runningNodeHours)
}

// EnergyFactor is f₇ = 1 − normalised_price, the normalised price in
// [0, 1] (PriceSeries.Normalised): jobs score higher when energy is cheap.
func EnergyFactor(normalisedPrice float64) float64 {
	return 1 - min(max(normalisedPrice, 0), 1)
}

// CheckpointEfficiency is f₈ = 1 / (1 + minutes). A job without a
// checkpoint_minutes label cannot be checkpointed as far as the scheduler
// knows (minutes = ∞): 0.
func CheckpointEfficiency(j *sim.Job) float64 {
	m, ok := label(j, LabelCheckpointMinutes)
	if !ok || m < 0 {
		return 0
	}
	return CheckpointFromMinutes(m)
}

// CheckpointFromMinutes is f₈ for a known checkpoint time.
func CheckpointFromMinutes(minutes float64) float64 { return 1 / (1 + max(minutes, 0)) }

// ConformanceFitness is f₉ = largest_conformance_group_size / requested
// nodes, capped at 1 (a group larger than the request still scores 1).
// Sizes count task slots: a node counts once per task of the job it can
// hold, so "nodes requested" is the task count.
func ConformanceFitness(largestGroup, requested int) float64 {
	if requested <= 0 {
		return 0
	}
	return min(1, float64(largestGroup)/float64(requested))
}

// label reads a numeric job label.
func label(j *sim.Job, key string) (float64, bool) {
	if j.Traits == nil {
		return 0, false
	}
	for _, l := range j.Traits.Labels {
		if l.Key == key {
			v, err := strconv.ParseFloat(l.Value, 64)
			if err != nil || math.IsNaN(v) {
				return 0, false
			}
			return v, true
		}
	}
	return 0, false
}
