// Package tune searches the weights of a Lattice weight profile
// (`schedsim tune experiment.yaml`) with gonum/optimize: CMA-ES
// (optimize.CmaEsChol, its population evaluated concurrently) or
// Nelder–Mead, minimising an objective averaged over the experiment's runs
// (traces × clusters × … × seeds) under constraints on other metrics.
//
// Run is the search alone: an Evaluator returns each metric's mean over
// the runs for a candidate profile. Prepare reads a tune experiment
// (Tuning), whose Search evaluates profiles by replaying every run of the
// experiment with each (sim/run, the runs planned by sim/sweep) and
// averaging the summary rows the replays return; WriteFiles writes the
// summary, convergence.csv and the best specs.
//
// Shape of the search. The point x has one coordinate per tuned factor,
// in weight units. A point is evaluated at its weights clamped into the
// bounds and rounded to 0.001, so the profile printed is exactly the one
// evaluated and repeated points are replayed once; a point outside the
// bounds pays (|f| + 1) × its distance to them, which leads the search
// back inside. Constraints are penalties: f = objective + penalty × S ×
// Σ relative violations, S the largest |objective| among the named
// profiles, and the best profile reported is the best feasible one.
//
// Which weights are searched. A lattice pass orders the queued jobs by
// Σ wᵢ·fᵢ. A factor whose value is the same for every job of the pass
// adds the same wᵢ·fᵢ to every score, so the order, and with it every
// start, reservation and backfill, is the same whatever wᵢ: its weight
// cannot change a schedule. Backlog pressure (f₆) and energy price (f₇)
// are such factors by definition, global signals equal for every job;
// others become so on a given workload: on an SWF log there are no
// priorities (f₁ = 0), no data-readiness or checkpoint labels (f₅ = 0.5,
// f₈ = 0) and one topology group (f₄ = 0), so only wait time, fair share
// and conformance differ between queued jobs. Searching an inert weight
// spends evaluations on a flat direction and reports an arbitrary "best"
// value for it. So tune measures instead of assuming: the lattice
// scheduler counts, in every pass that ranks two jobs or more, which
// factors took two values (lattice.FactorVariation; a pass mixing
// profiles through queue_profiles counts any nonzero factor, since a
// weight then shifts one profile's jobs against the others). Summed over
// the named profiles' runs, a factor that never varied is inert: tune
// names it in its output and in best.yaml and leaves it out of the search,
// where it keeps the start profile's weight; tune.keep_inert: true
// searches it anyway. On KTH-SP2's first 2,000 jobs
// (testdata/tune/kth-tune.yaml) priority, topology, data_ready, backlog,
// energy and checkpoint are inert in all 15,940 passes of two jobs or
// more; of the four weights that spec asks for, priority and backlog are
// left out.
//
// best.yaml. The best profile is written as best-profile.yaml and as
// best.yaml, a complete run spec (every key of a replay's --config, the
// lattice: block included, profile: best-profile.yaml, paths relative to
// the output directory), headed by comments giving the score it
// reproduces and the inert factors: `schedsim replay --config best.yaml`
// replays the first run of the experiment exactly as tune evaluated it,
// to the same objective value when the experiment has one run (with
// several, best-<run>.yaml holds each and the reported score is their
// mean).
//
// Determinism. The optimizer's randomness is a PCG stream of the tune
// seed. CMA-ES draws a whole population before any result is back and
// updates only when every result is in, so the concurrent evaluation order
// changes nothing; evaluations are recorded by (iteration, weights), not
// by arrival. The same spec and seed give byte-identical output.
package tune
