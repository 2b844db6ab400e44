// Package sweep runs a sweep: every run of an experiment (package
// experiment) replayed by sim/run on a pool of goroutines, each into
// DIR/runs/<key>/, then the sweep's summary (one row per run, written by
// package metrics).
//
// A run becomes a run spec (the replay: block overlaid on the defaults,
// the run's axes, parameters and seed, a weight profile per run when
// w_<factor> parameters are swept) one at a time, as the experiment's plan
// yields it: a sweep checks every run's spec before it writes anything,
// then resolves each again as it replays it, holding none (Plan resolves
// a list at once, for tune). A Sweeper runs the runs, or one shard of
// them: a run is staged beside its final directory and renamed into place
// whole, so a run that exists is complete, and a sweep run again (after
// Ctrl-C, kill -9 or failed runs) does only what is missing. A failed run
// is counted and reported; the others go on. Merge joins the shards of a
// sharded sweep into the summary one process would have written, byte
// for byte.
//
// A sweep directory's locks are the kernel's (flock), taken in lock.go:
// shards of one count run side by side; a second sweep of the same
// shard, a sweep of another shard count and a merge are refused while
// one runs. The command line (flags, Kubernetes' and Slurm's shard
// variables, the printed results) is cmd/schedsim's.
package sweep
