// Package lattice is the multi-factor queue of the Lattice scheduler (its
// design document's "Scheduling Algorithm"): every queued job gets a
// composite score
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
//
// # Reactive scaling
//
// With Config.Services (the lattice block's services: list, ServiceArgs)
// services hold whole nodes and scale with a load series, one CSV of
// time_s,value each (autoscale.go): a service asks for min_nodes at
// start_s; outside a cooldown it asks for step_nodes more when its load
// per node is above scale_up_above (up to max_nodes) and gives step_nodes
// back when it is below scale_down_below (down to min_nodes, and only if
// the load on the nodes left stays at or under scale_up_above). A request
// waits for that many wholly free nodes like any allocation and is
// served before the queue; a release frees the nodes at once, and while a
// service holds a node no job starts, reserves or preempts there. The
// scheduler records the nodes of each service over time
// (ServiceTimeline), every scale event (ScaleEvents) and, per service, the
// time above its threshold split into waiting for nodes, at max_nodes
// (together: unable to scale) and cooling down (ServiceSummaries). The
// scenario testdata/lattice/autoscale.yaml works a whole case through, the
// arithmetic in its comments.
//
// # Edge cases of the factors
//
// Conformance without fingerprints. A cluster whose nodes carry no
// conformance attribute is one conformance group, so f₉ = min(1, free
// task slots for the request / tasks requested): it is 1 for every job
// that fits now and falls in proportion for those that do not. On a busy
// cluster that is a small-job bias, not a conformance preference: under
// interactive (w₉ = 0.30, w₂ = 0.30) a job asking for twice the free nodes
// loses 0.30 · 0.5 = 0.15, which waiting makes up only after
// 0.30 · ln(1 + w / 1 h) = 0.15, w = (e^0.5 − 1) h ≈ 39 min. The node
// selection's "one conformance group" rule is vacuous there, so the
// sensitive profile's hard conformance constraint never blocks a job.
//
// Topology on one group. f₄ = 1 − groups_needed / max_groups_available,
// and max_groups_available counts the groups with room for the request
// now. With one group (a cluster without rack attributes, or a moment
// when only one group has room) a job that fits needs 1 of 1 groups and
// one that does not is charged every group: f₄ = 0 for every job, so w₄
// (0.25 under ml-training) moves every score by the same 0 and changes
// nothing. The seed's best case, "fits in a single group", scores 1 − 1/G
// on G groups: 0.5 on two, 0 on one.
//
// What makes profiles differ on SWF logs. An SWF log has no priorities
// (f₁ = 0), no data-readiness or checkpoint labels (f₅ = 0.5, f₈ = 0), no
// topology groups (f₄ = 0) and no fingerprints (f₉ as above); f₆ and f₇
// are the same for every job of a pass by definition. A factor equal for
// every queued job adds the same amount to every score and cannot change
// the order (variation.go), and scaling every weight by c > 0 does not
// either, so on an SWF log a profile acts only through the direction of
// (w₂, w₃, w₉), wait time, fair share and free-slot conformance. default
// and hpc-batch share (0.20, 0.20, 0.10) and give the same schedule;
// ml-training's (0.10, 0.10, 0.10) weighs the three equally; interactive
// (0.30, 0.10, 0.30) and service (0.05, 0.10, 0.30) lean to small jobs;
// sensitive (0, 0, 0.10) orders by free-slot conformance alone, ties by
// submit time. f₃ tells jobs apart only once tenants have used different
// shares: with tenants by user on a log of many users, most of them at
// first have used nothing and share the deficit 1.
package lattice
