// Package policies decides which queued job starts next and where: queue
// orders (FCFS, SJF), backfilling (none, EASY, conservative) and placement
// (first fit in node order). Policies see the engine through sim.Context and
// act only through Context.Start, which the engine checks.
//
// Backfilling reserves specific nodes, first fit in time: the earliest time
// at which enough nodes are free throughout [t, t + walltime), taking the
// lowest-numbered nodes of that set. On a cluster of one big node
// this is the classic processor-count EASY and conservative backfilling.
//
// EASY keeps one reservation (the queue head) and computes it from the
// running jobs' expected ends alone, a monotone profile, so it needs no
// timeline; it keeps that reservation from pass to pass, updated on the
// nodes of each job that starts or ends. Conservative gives every queued
// job a reservation, kept from pass to pass and compressed whenever a job
// ends (package conservative). Under the Repick rule (Options) every
// queued job is instead put back at its first fit at every job end, nodes
// included, as batsched does for Batsim; a planning delay pads every
// walltime in the plan (batsched's RJMS delay).
package policies
