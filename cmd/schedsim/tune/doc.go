// Package tune searches the weights of a Lattice weight profile
// (`schedsim tune experiment.yaml`) with gonum/optimize: CMA-ES
// (optimize.CmaEsChol, its population evaluated concurrently) or
// Nelder–Mead, minimising an objective averaged over the experiment's runs
// (traces × clusters × … × seeds) under constraints on other metrics.
//
// The package holds the search, not the simulation: an Evaluator (package
// main) replays every run with a candidate profile and returns each
// metric's mean over the runs.
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
// Determinism. The optimizer's randomness is a PCG stream of the tune
// seed. CMA-ES draws a whole population before any result is back and
// updates only when every result is in, so the concurrent evaluation order
// changes nothing; evaluations are recorded by (iteration, weights), not
// by arrival. The same spec and seed give byte-identical output.
package tune
