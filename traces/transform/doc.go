// Package transform rewrites a workload for a what-if replay: the job
// stream (a sim.Source wrapper, streaming, submit order kept) and the
// cluster (a []sim.NodeSpec).
//
// The stream transforms apply to each job in this order (stream.go):
//
//  1. the time window: jobs submitted before From or from Until on are
//     left out (the trace's own clock); then only the first FirstJobs
//     jobs are kept. Reading stops at the first job past the window.
//  2. the load factor f: submit' = first + (submit − first)/f, where
//     first is the first kept job's submit (Qsim's -F): every
//     inter-arrival gap divided by f, so f = 2 offers twice the load.
//  3. the runtime factor: runtime × f. The walltime stays as traced
//     unless the walltime model says otherwise, so a job pushed past its
//     requested time is killed there, as the engine kills any job that
//     overruns (kill_at_walltime); the scaled model keeps the requests in
//     proportion instead.
//  4. jitter (jitter.go): seeded random submit offsets and runtime
//     factors, for replicas that differ.
//  5. the walltime model (walltime.go): as traced, scaled with the
//     runtime factor, exact (= runtime), or k × runtime.
//  6. warm-up and cool-down (measure.go): jobs submitted in the first
//     WarmUp or the last CoolDown of the transformed stream are replayed
//     but not measured; Source.Measured says which.
//
// Every transformed job is a copy: the reader's jobs may be shared by
// several runs. A job whose submit or runtime a transform changed loses
// its recorded start (sim.Job.Recorded): the traced system never ran that
// job, so calibration has nothing to compare it with. A window alone keeps
// it. A kept job's dependencies on jobs left out before From are dropped
// (they were met before the window), which costs the ids of those jobs in
// memory.
//
// Checkpoints (checkpoint.go) sets each job's checkpoint interval and
// restore cost from its labels, or the run's --checkpoint interval.
//
// The cluster transforms (cluster.go) work on node groups, the nodes
// whose specs are identical but for the name: Scale multiplies each
// group's node count, Add copies a named node.
package transform
