package sim

// Job is one job as a trace describes it. Readers produce Jobs; the engine
// never changes them.
type Job struct {
	ID       string // as in the trace
	Submit   Time   // arrival
	Runtime  Time   // actual run time, ≥ 0
	Walltime Time   // requested time limit; NoWalltime when the trace has none
	Tasks    int    // number of tasks, ≥ 1
	// Request is what each task needs on the node it lands on. A resource
	// not listed is not touched; a listed resource must exist on the node.
	Request []Quantity
	// Gang jobs start all their tasks at once (HPC). The engine starts a
	// job's tasks together unless IndependentTasks says otherwise, so Gang
	// documents the trace's intent.
	Gang      bool
	User      string
	Group     string
	Queue     string
	Partition string
	Priority  int
	// IndependentTasks asks for the tasks to start as each fits, each with
	// its own start and end (the native format's gang: false; Fenzo's
	// independent tasks). The engine replays such a job of several tasks
	// as one job per task (split.go). A reader whose jobs are merely not
	// gangs (Alibaba's instances) leaves it false: their tasks start
	// together, as they always have.
	IndependentTasks bool
	// QOS is the quality of service the job asked for (Slurm's QOS); ""
	// when the trace has none.
	QOS string
	// RequestedProcs is the processor (core) count the trace says the job
	// asked for, kept for the outputs even where the cluster model folds
	// it into one task (SWF's pool model); 0 when the trace gives none.
	RequestedProcs int64
	// Recorded says the trace records when the job really started on the
	// traced system (SWF's wait field, sacct's Start); RecordedStart is
	// that time on the replay's clock. Calibration compares against it.
	Recorded      bool
	RecordedStart Time
	// CotaskGroup names the group of jobs whose tasks are one another's
	// co-tasks for unique and balanced attribute constraints (Fenzo's
	// co-task getter): replicas of a service submitted as separate jobs.
	// "" means the job's own tasks only.
	CotaskGroup string
	// Traits are placement constraints and preferences; nil for none.
	Traits *Traits
	// CheckpointInterval, when > 0, is how often the job saves its work:
	// after a failure it restarts from its last checkpoint instead of from
	// zero.
	CheckpointInterval Time
	// CheckpointCost is what a restart from a checkpoint pays to restore
	// it: a job that resumes saved work runs this much longer.
	CheckpointCost Time
	// DependsOn lists earlier jobs of the trace this one waits for
	// (deps.go); nil for none.
	DependsOn []Dependency
	// Line is the job's line in its trace file, for messages that name
	// it; 0 when the reader does not say (formats without lines).
	Line int
}

// NoWalltime marks a job whose trace gives no requested time.
const NoWalltime Time = -1

// JobStatus is where a job is in its life.
type JobStatus uint8

// Job states. Every submitted job ends in exactly one of Completed, Killed,
// Rejected, or (at the horizon) Queued or Running. A job held back by its
// dependencies is Queued but not yet in Context.Queue (deps.go): no state
// of its own, since no policy may act on it and, at the horizon, it is
// reported with the queue (it never started).
const (
	Queued JobStatus = iota
	Running
	Completed
	Killed
	Rejected
)

var statusNames = [...]string{"queued", "running", "completed", "killed", "rejected"}

func (s JobStatus) String() string { return statusNames[s] }

// JobRun is one job's life in a simulation: its state, where its tasks run
// and when. The engine owns it; policies read it.
type JobRun struct {
	Job *Job
	// Seq is the job's arrival number (0, 1, …): the last tie-breaker.
	Seq    int64
	Status JobStatus
	Start  Time    // valid once Running
	End    Time    // valid once Completed or Killed
	Nodes  []int32 // node index of each task, valid once Running
	Reason string  // why it was rejected or killed
	// Requeued says why a job is queued again after it ran: "relocation"
	// (its node failed) or "evacuation" (its node was drained); "" for a
	// job never started.
	Requeued string
	// FirstStart is when the job first started (waits count from submit
	// to it); Restarts counts the times it was stopped and queued again;
	// LostWork is the work those stops threw away (run time since the last
	// checkpoint); Saved is the work kept by checkpoints, which a restart
	// does not redo.
	FirstStart Time
	Restarts   int
	LostWork   Time
	Saved      Time
	// Overhead is the checkpoint restore time the job's restarts paid.
	Overhead Time

	// TraceSubmit is the submit time the trace gives. Job.Submit equals it
	// except for a job its dependencies held back past it: that job runs
	// with a copy of its Job whose Submit is the release time, its
	// effective submit (deps.go).
	TraceSubmit Time
	// PolicyState is the queue policy's own per-job state (conservative
	// backfilling keeps the job's reservation there): a field instead of a
	// map keyed by job, which every pass over a long queue would look up.
	// The engine never reads it.
	PolicyState any
	// PolicySlot is a queue policy's own small number for the job (EASY
	// and conservative backfilling keep where a running job sits in their
	// list of ends there), an integer that PolicyState would box. The
	// engine never reads it.
	PolicySlot int32
	// hiddenPass is the last scheduling pass whose per-user or per-queue
	// caps hid the job (limits.go); 0: none did.
	hiddenPass int64
	// PlacerState is the placer's own per-job state, kept here for the
	// same reason (the pipeline placer's booking of the job). The engine
	// never reads it.
	PlacerState any
	// ObserverState is an observer's own per-job state (the metrics
	// recorder keeps the job's tenant there, found once instead of by
	// name at every event). The engine never reads it.
	ObserverState any

	req       []Need  // compiled Request
	immune    []int32 // compiled Traits.Immunities, sorted
	finishAt  Time    // when the engine ends it
	finishing JobStatus
	runIndex  int      // position in Engine.running
	attempt   uint32   // bumped when a run is stopped: its finish event is stale
	nodeStops int      // times node events stopped it (Config.MaxRestarts)
	gaveUp    bool     // killed at a node event, past Config.MaxRestarts
	restore   Time     // checkpoint restore time this run pays
	powered   bool     // the run has begun: its tasks are in the draw
	oneNode   [1]int32 // Nodes' storage for a job of one task
}

// Need is one entry of a compiled request: a resource index (see
// Cluster.Resources) and the amount each task needs.
type Need struct {
	Res int32
	Amt Amount
}

// Needs returns the job's compiled per-task request, sorted by resource
// index. It is valid once the job is submitted and not rejected.
func (j *JobRun) Needs() []Need { return j.req }

// Immune returns the sorted indices of the resources j's tasks ignore.
func (j *JobRun) Immune() []int32 { return j.immune }

// EstimatedRuntime is the time the scheduler may assume the job runs: the
// walltime when known, else the actual runtime (the usual simulator
// convention), less the work a checkpoint saved before a restart.
func (j *JobRun) EstimatedRuntime() Time {
	if j.Job.Walltime >= 0 {
		return max(j.Job.Walltime-j.Saved, 0)
	}
	return j.Job.Runtime - j.Saved
}

// Remaining is the work left to run: the runtime less what checkpoints
// saved.
func (j *JobRun) Remaining() Time { return j.Job.Runtime - j.Saved }

// Restore is the checkpoint restore time the current run pays on top of
// its remaining work (0 for a first run or a restart from zero).
func (j *JobRun) Restore() Time { return j.restore }

// ExpectedEnd is when a scheduler should expect a running job to free its
// nodes: start + estimate, and never before now (a job past its estimate
// whose kill is disabled is expected to end at any moment).
func (j *JobRun) ExpectedEnd(now Time) Time {
	e := j.Start + j.EstimatedRuntime()
	if e < now {
		return now
	}
	return e
}
