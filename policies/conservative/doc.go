// Package conservative is conservative backfilling: every queued job holds
// a reservation on specific nodes, the earliest window in which its tasks
// fit (first fit in time, then the lowest-numbered nodes), so no job is
// ever delayed by a later one. When jobs end, reservations are compressed
// in queue order: by default a job moves only to start earlier (Mu'alem &
// Feitelson, pyss); with Config.Repick every job is put back at its first
// fit, nodes included (batsched, Batsim). A planning delay pads
// every walltime in the plan. New builds it; package policies offers it as
// the "conservative" backfilling.
//
// The package has three layers, each keeping its own invariant
// (docs/conservative-backfilling.md draws them):
//
//   - Timelines (profile.go, lines.go, blockindex.go): the projected free
//     capacity of every node over time, a step function per node. Nodes
//     with the same history share one timeline; node timelines hold no
//     redundant breakpoint; the totals' timeline is the sum of the nodes'.
//   - Searches (search.go, sweep.go, fitevents.go): the earliest window of
//     a job on those timelines. Each returns exactly what a scan of every
//     node from now would: the earliest start, then the lowest-numbered
//     nodes.
//   - Pruning: what lets most searches be skipped or shortened. The growth
//     log (profile.go) bounds where any slot may move; the freed-capacity
//     log (freed.go, gains.go) names the nodes that came free; the memos
//     (memo.go) remember failed searches by shape; the fit summaries
//     (fitsummary.go) and their index (summaryindex.go) say which
//     timelines may hold a task. Each may overstate what can fit, never
//     understate it, so a skip never changes a result.
//
// The scheduler (scheduler.go) books and settles reservations; settle
// (settle.go) tries named strategies (strategies.go) in turn. Its results
// equal a plain implementation's (reference_test.go), checked by
// FuzzConservativeReference on random clusters and workloads.
package conservative
