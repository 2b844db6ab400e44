package clusterconfig

import (
	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
)

// limits reads a cluster file's limits: block, the most a user and a
// queue may run at once (sim.Limits):
//
//	limits:
//	  max_jobs_per_user: 8      # Slurm MaxJobsPerUser, Maui MAXJOB
//	  max_procs_per_user: 64    # Slurm MaxTRESPerUser=cpu=64, Maui MAXPROC
//	  max_jobs_per_queue: 20
//	  max_procs_per_queue: 128
func (d decoder) limits(v *yaml.Node, path string) (sim.Limits, bool) {
	var l sim.Limits
	good := true
	d.mapping(v, path, func(key string, k, v *yaml.Node) {
		var into *int64
		switch key {
		case "max_jobs_per_user":
			into = &l.JobsPerUser
		case "max_procs_per_user":
			into = &l.ProcsPerUser
		case "max_jobs_per_queue":
			into = &l.JobsPerQueue
		case "max_procs_per_queue":
			into = &l.ProcsPerQueue
		default:
			d.unknown(k, join(path, key), limitKeys)
			good = false
			return
		}
		n, ok := d.integer(v, join(path, key))
		if ok && n < 0 {
			d.add(v.Line, join(path, key), "must be ≥ 0 (0: no cap), got %d", n)
			ok = false
		}
		good = good && ok
		*into = int64(n)
	})
	return l, good
}
