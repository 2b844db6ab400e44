// Package deploy holds no code: it is the home of the tests of the
// deployment files beside it, so that a typo in them fails CI.
//
//   - kubernetes/*.yaml decode strictly into the k8s.io/api types (an
//     unknown or duplicate field is an error), every container pulls
//     IfNotPresent (a locally built schedsim:latest would otherwise be
//     pulled, and fail), every memory limit covers the Go soft limit its
//     schedsim process runs under with headroom, the volumes name objects
//     the manifests define, and a Job copies the image's traces onto the
//     volume the sweep reads them from.
//   - slurm/submit.sh submits a sweep array and its merge, and --retry K
//     resubmits task K as its own shard with a new merge; run against fake
//     sbatch, squeue and scancel. The real Slurm run is .ci/slurm/run.sh.
package deploy
