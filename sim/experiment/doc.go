// Package experiment reads a sweep's experiment spec and expands it into
// runs. It holds no simulation logic: package sweep turns each Run into a
// run spec and replays it (`schedsim sweep`, `merge`), package tune
// replays them with candidate profiles, and metrics/compare reads the
// summaries back.
//
// A spec is strict YAML (unknown keys are errors with their line numbers;
// Validate reports every problem at once, each with its line):
//
//	name: kth-backfill
//	seed: 42                    # base seed: each run's seed derives from it and the run's key
//	seeds: 2                    # replicas per point: seed=1, seed=2 in the keys
//	traces:
//	  - {name: kth, path: ../swf/kth-sp2-head.swf.gz}   # paths relative to this file
//	clusters:                   # optional; default: the trace's own (SWF header, pool model)
//	  - {name: pool, swf_model: pool}
//	policies:
//	  queue: [fcfs]
//	  backfill: [none, easy]
//	  placement: [first-fit]
//	profiles: [hpc-batch]       # lattice weight profiles (queue lattice only)
//	parameters:
//	  sampling: grid            # grid | random | lhs (Latin hypercube)
//	  samples: 8                # points, for random and lhs
//	  seed: 7                   # sampling seed (default: seed)
//	  ranges:
//	    - {name: w_fair_share, values: [0, 0.5]}     # a lattice weight over the profile's
//	    - {name: checkpoint_s, min: 0, max: 3600, steps: 3}
//	replay: {bsld_tau_s: 10, format: parquet}    # fixed replay settings (the --config keys)
//	metrics: [mean_wait_s, mean_bsld, utilization] # summary columns kept (default: all)
//
// Expansion is the product traces × clusters × queues × backfills ×
// placements × profiles × parameter points × replicas. Every Run has a
// Key, a readable filesystem-safe string of its values
// (kth__pool__fcfs__easy__first-fit__seed=1), stable for the same values,
// and a Seed derived from the base seed and the key alone (RunSeed), never
// from the worker or shard that runs it, so results do not depend on how a
// sweep is split. Plan makes the runs one at a time, in key order by
// construction (keyorder.go), each time they are iterated, holding the
// axes, not the runs: a million runs plan in a few megabytes. Count gives
// their number from the axes' sizes alone, so a plan over --max-runs is
// refused before it is made. Plan.Shard yields the runs of shard i of n
// by their position in key order.
//
// Summary builds the sweep's summary table (one row per run, parameter
// columns, then the run's own summary columns but the machine-timing ones)
// from the run directories; package metrics writes it.
package experiment
