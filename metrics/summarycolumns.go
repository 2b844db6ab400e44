package metrics

// The columns of a run's summary (summary.csv, summary.parquet), declared
// once: the Recorder writes them under these names and every package that
// reads a summary column names it with these constants, so that a rename
// is a compile error rather than a column silently missing at run time.
// summaryCols (summary.go) gives their order, types and meaning.
const (
	ColJobs           = "jobs"            // jobs submitted
	ColJobsCompleted  = "jobs_completed"  // ended of themselves
	ColJobsKilled     = "jobs_killed"     // killed at walltime (or after --max-restarts)
	ColJobsRejected   = "jobs_rejected"   // that no node could ever hold
	ColJobsUnfinished = "jobs_unfinished" // queued or running at the end
	ColJobsSkipped    = "jobs_skipped"    // records the trace reader skipped
	ColJobsMeasured   = "jobs_measured"   // with Options.Measured only

	ColMakespan     = "makespan_s"    // first submit to the end, s
	ColMeanWait     = "mean_wait_s"   // over started jobs, s
	ColMedianWait   = "median_wait_s" // s
	ColP95Wait      = "p95_wait_s"    // s
	ColMaxWait      = "max_wait_s"    // s
	ColMeanSlowdown = "mean_slowdown" // over ended jobs that ran > 0 s
	ColMeanBSLD     = "mean_bsld"     // bounded slowdown, over ended jobs

	ColRestarts           = "restarts"    // runs stopped by node events or preemption
	ColPreemptions        = "preemptions" // of which preemptions
	ColLostWork           = "lost_work_s"
	ColLostNodeHours      = "lost_node_hours"
	ColCheckpointOverhead = "checkpoint_overhead_s"
	ColNodeDowntime       = "node_downtime_s"

	ColJainBSLD       = "jain_bsld"        // Jain's index of the tenants' bsld
	ColJainUsageShare = "jain_usage_share" // Jain's index of usage over share
	ColUtilization    = "utilization"      // of cpu, or of the first resource

	ColCalibJobs                = "calib_jobs"
	ColCalibStartErrorMedian    = "calib_start_error_median_s"
	ColCalibStartErrorP90       = "calib_start_error_p90_s"
	ColCalibWaitKS              = "calib_wait_ks"
	ColCalibMeanWaitRatio       = "calib_mean_wait_ratio"
	ColCalibP95WaitRatio        = "calib_p95_wait_ratio"
	ColCalibRecordedUtilization = "calib_recorded_utilization"

	ColEnergyJ        = "energy_j"   // null without a power model
	ColEnergyKWh      = "energy_kwh" // the same, in kWh
	ColEnergyCost     = "energy_cost"
	ColCarbonKg       = "carbon_kg"
	ColNodeAsleep     = "node_asleep_s"
	ColNodeSwitching  = "node_switching_s"
	ColSwitchOffs     = "switch_offs"
	ColSwitchOns      = "switch_ons"
	ColWall           = "wall_s"       // timing: differs between identical runs
	ColEvents         = "events"       // engine events applied
	ColEventsPerWallS = "events_per_s" // timing
	ColJobsPerWallS   = "jobs_per_s"   // timing

	// The labels a replay adds (Options.Labels): text columns.
	ColTrace    = "trace"
	ColQueue    = "queue"
	ColBackfill = "backfill"
)

// Prefixes of the per-resource columns: utilization_<resource> and
// frag_<resource>, one a resource of the cluster (snake-cased name).
const (
	UtilizationPrefix = ColUtilization + "_"
	FragPrefix        = "frag_"
)

// IsTimingColumn says whether a summary column measures the machine
// (wall_s, events_per_s, jobs_per_s): it differs between identical runs.
func IsTimingColumn(name string) bool {
	return name == ColWall || name == ColEventsPerWallS || name == ColJobsPerWallS
}

// The columns a sweep's summary (and tune's) adds before its runs' own:
// one row a run, named by its key, its directory, the param_<name>
// columns of its parameter values, its replica's number and the seed it
// was given.
const (
	ColRun        = "run"
	ColRunDir     = "run_dir"
	ParamPrefix   = "param_"
	ColSeed       = "seed"
	ColRandomSeed = "random_seed"
)
