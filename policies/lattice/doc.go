// Package lattice is Lattice's multi-factor queue (../shared/seeds/
// lattice-scheduling.txt): every queued job gets a composite score
//
//	Score(j) = Σ wᵢ·fᵢ(j),  i = 1…9
//
// from nine factors in [0, 1] (factors.go) and a weight profile
// (profiles.go, profilefile.go), and the solver GreedyTopologyAwareBackfill
// (scheduler.go) starts jobs in score order on the smallest set of nodes in
// the fewest topology groups, preferring one conformance group (required
// under the sensitive profile), within a cluster power budget, and
// backfills lower-scored jobs that do not delay the reservation of the
// best-scored job that cannot start.
//
// The factors, as the seed defines them:
//
//	f₁ priority     job priority class clamped to 0…10, divided by 10
//	f₂ wait_time    ln(1 + wait / reference_wait), reference 1 h by default
//	f₃ fair_share   max(0, target − actual) / target for the job's tenant
//	f₄ topology     1 − groups_needed / max_groups_available
//	f₅ data_ready   the job's data_readiness label, 0.5 when unknown
//	f₆ backlog      min(1, queued node-hours / running node-hours)
//	f₇ energy       1 − normalised price(now), prices from a CSV series
//	f₈ checkpoint   1 / (1 + checkpoint_minutes)
//	f₉ conformance  largest fingerprint group of candidates / nodes requested
//
// The engine's job model has no data-readiness or checkpoint-cost field, so
// f₅ and f₈ read job labels (Traits.Labels "data_readiness",
// "checkpoint_minutes"); SWF traces carry neither, so f₅ is the neutral 0.5
// and f₈ is 0 there (no checkpoint known: preempting the job loses all its
// work, as 1/(1+∞)). f₂ is unbounded above (the log only slows it); the
// others are in [0, 1].
//
// With Config.Preemption the best-scored blocked job may preempt running
// jobs of a strictly lower priority class (preempt.go): preemption only
// moves down tiers, the victims keep their checkpointed work and pay their
// checkpoint cost on resuming (sim.Context.Preempt).
//
// With Config.VClusters nodes have a home vCluster and jobs belong to one:
// a job may borrow idle nodes of another vCluster at a penalty in its
// score, and the home vCluster's blocked job reclaims them by preempting
// the borrower (vcluster.go); every change of holder is recorded.
//
// Scheduling happens in event mode (every event time) or cycle mode (every
// N seconds, through Context.WakeAt), the seed's "scheduling cycle".
package lattice
