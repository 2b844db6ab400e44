// Package placement decides which node each task of a job goes to: one
// pipeline of filters (hard rules, each rejecting with a reason), weighted
// scorers (soft rules, each in [0, 1], higher is better) and a selection
// (best total score, ties to the lowest node index, optionally over a
// limited number of feasible candidates). Every named strategy (
// pylighthouse's prioritized, round-robin and binpack, k8s least- and
// most-allocated, balanced allocation and spread, LXD's fewest-instances,
// random, Tetris dot-product) is a configuration of it, built by name from
// the registry (registry.go) with typed, validated arguments.
// The GPU strategies (fgd, best-fit, gpu-packing, gpu-clustering,
// gpu-dot-product, gpu-random; gpufamily.go) run the FGD paper's policies
// of package gpu as a device-level filter and a scorer over a gpu.Cluster
// mirror of the ledger, kept in step by a ledger Tracker.
//
// Filters and scorers work on a batch of candidate nodes rather than one
// node per call (ARCHITECTURE.md's Filter(task, node, view)): a placement on
// a 10,000-node cluster evaluates every rule on every node, and one call
// per rule per batch keeps that a tight loop over flat arrays. A rule
// written for one node at a time wraps into the batch form (PerNode).
//
// The pipeline reads a Ledger, its own record of what is placed where: free
// amounts (with the engine's fit semantics, sim.Cluster.TasksFitting), task
// counts, aversion groups and exclusive hosts per node, and the nodes of
// each co-task group's tasks (cotasks.go: Fenzo's unique and balanced
// constraints see a job's group across jobs). A rejection names each
// constraint with its attribute ("0/3 nodes: 3 host-attribute
// instance=r5"), and a unique constraint with fewer values than co-tasks
// says so ("unique-attribute zone: 3 values, 4 co-tasks"). In a simulation the
// Placer keeps the ledger in step with the engine (it books what it starts
// and gives back what ends); as a library the ledger is the whole state
// (see Distributor, the pylighthouse form).
package placement
