// Package sweep runs a sweep: every run of an experiment (package
// experiment) replayed by sim/run on a pool of goroutines, each into
// DIR/runs/<key>/, then the sweep's summary (one row per run, written by
// package metrics).
//
// Plan turns the experiment's runs into run specs (the replay: block
// overlaid on the defaults, each run's axes, parameters and seed, a weight
// profile per run when w_<factor> parameters are swept), checking them all
// at once. A Sweeper runs them, or one shard of them: a run is staged
// beside its final directory and renamed into place whole, so a run that
// exists is complete, and a sweep run again (after Ctrl-C, kill -9 or
// failed runs) does only what is missing. A failed run is counted and
// reported; the others go on. Merge joins the shards of a sharded sweep
// into the summary one process would have written, byte for byte.
//
// A sweep directory's locks are the kernel's (flock), taken in lock.go:
// shards of one count run side by side; a second sweep of the same
// shard, a sweep of another shard count and a merge are refused while
// one runs. The command line (flags, Kubernetes' and Slurm's shard
// variables, the printed results) is cmd/schedsim's.
package sweep
