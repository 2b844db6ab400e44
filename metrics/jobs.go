package metrics

import (
	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// jobsSchema is the jobs table: one row per submitted job, in the order
// the jobs left the system (rejected, ended, or still queued/running when
// the run finished). Times are seconds; null means "did not happen" (a
// rejected job has no start) or "unknown" (no requested walltime).
var jobsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "job_id", Type: arrow.BinaryTypes.String}, // as in the trace
	{Name: "user", Type: arrow.BinaryTypes.String},
	{Name: "group", Type: arrow.BinaryTypes.String},
	{Name: "queue", Type: arrow.BinaryTypes.String},
	{Name: "tasks", Type: arrow.PrimitiveTypes.Int64},
	{Name: "submit_s", Type: arrow.PrimitiveTypes.Float64},
	{Name: "start_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "end_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "wait_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true},    // start − submit
	{Name: "runtime_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, // end − start, what it really ran
	{Name: "walltime_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "turnaround_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, // end − submit
	{Name: "slowdown", Type: arrow.PrimitiveTypes.Float64, Nullable: true},     // turnaround / runtime; null when runtime is 0
	{Name: "bsld", Type: arrow.PrimitiveTypes.Float64, Nullable: true},         // max(1, turnaround / max(runtime, tau))
	{Name: "state", Type: arrow.BinaryTypes.String},                            // completed, killed, rejected, queued, running
	{Name: "reason", Type: arrow.BinaryTypes.String},                           // why rejected or killed; "" when none
	{Name: "nodes", Type: arrow.PrimitiveTypes.Int64},                          // distinct nodes used
	{Name: "node_list", Type: arrow.BinaryTypes.String},                        // node indices as ranges, "0-3,7"
	{Name: "energy_j", Type: arrow.PrimitiveTypes.Float64},                     // dynamic energy, above the nodes' idle draw
	{Name: "restarts", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// jobsTable appends job rows to the streamed jobs file.
type jobsTable struct {
	*table
	id, user, group, queue, state, reason, nodeList                                 *array.StringBuilder
	tasks, nodes, restarts                                                          *array.Int64Builder
	submit, start, end, wait, runtime, walltime, turnaround, slowdown, bsld, energy *array.Float64Builder

	tau     sim.Time
	scratch []int32 // copy of a job's nodes, sorted for node_list
	buf     []byte  // node_list text
}

func newJobsTable(dir, format string, tau sim.Time, mem memory.Allocator) (*jobsTable, error) {
	tb, err := newTable(dir, "jobs", format, jobsSchema, mem)
	if err != nil {
		return nil, err
	}
	s := func(name string) *array.StringBuilder { return tb.col(name).(*array.StringBuilder) }
	i := func(name string) *array.Int64Builder { return tb.col(name).(*array.Int64Builder) }
	f := func(name string) *array.Float64Builder { return tb.col(name).(*array.Float64Builder) }
	return &jobsTable{
		table: tb, tau: tau,
		id: s("job_id"), user: s("user"), group: s("group"), queue: s("queue"),
		state: s("state"), reason: s("reason"), nodeList: s("node_list"),
		tasks: i("tasks"), nodes: i("nodes"), restarts: i("restarts"),
		submit: f("submit_s"), start: f("start_s"), end: f("end_s"), wait: f("wait_s"),
		runtime: f("runtime_s"), walltime: f("walltime_s"), turnaround: f("turnaround_s"),
		slowdown: f("slowdown"), bsld: f("bsld"), energy: f("energy_j"),
	}, nil
}

// add appends j's row as of state: completed and killed jobs have every
// time; running ones (at the end of the run) a start but no end; queued
// and rejected ones neither.
func (t *jobsTable) add(j *sim.JobRun, state sim.JobStatus, energyJ float64) error {
	job := j.Job
	t.id.Append(job.ID)
	t.user.Append(job.User)
	t.group.Append(job.Group)
	t.queue.Append(job.Queue)
	t.tasks.Append(int64(job.Tasks))
	t.submit.Append(job.Submit.Seconds())

	started := state == sim.Running || state == sim.Completed || state == sim.Killed
	if started {
		t.start.Append(j.Start.Seconds())
		t.wait.Append((j.Start - job.Submit).Seconds())
	} else {
		t.start.AppendNull()
		t.wait.AppendNull()
	}
	if state == sim.Completed || state == sim.Killed {
		run, turn := j.End-j.Start, j.End-job.Submit
		t.end.Append(j.End.Seconds())
		t.runtime.Append(run.Seconds())
		t.turnaround.Append(turn.Seconds())
		if run > 0 {
			t.slowdown.Append(slowdown(turn, run))
		} else {
			t.slowdown.AppendNull()
		}
		t.bsld.Append(bsld(turn, run, t.tau))
	} else {
		t.end.AppendNull()
		t.runtime.AppendNull()
		t.turnaround.AppendNull()
		t.slowdown.AppendNull()
		t.bsld.AppendNull()
	}
	if job.Walltime == sim.NoWalltime {
		t.walltime.AppendNull()
	} else {
		t.walltime.Append(job.Walltime.Seconds())
	}
	t.state.Append(state.String())
	t.reason.Append(j.Reason)

	var n int
	t.buf = t.buf[:0]
	if started {
		t.scratch = append(t.scratch[:0], j.Nodes...)
		t.buf, n = appendNodeRanges(t.buf, t.scratch)
	}
	t.nodes.Append(int64(n))
	// The embedded BinaryBuilder takes bytes, so no string is allocated.
	t.nodeList.BinaryBuilder.Append(t.buf)
	t.energy.Append(energyJ)
	t.restarts.Append(0)
	return t.endRow()
}

// slowdown is turnaround / runtime; the ratio of two microsecond counts is
// as exact as a float division gets. runtime must be positive.
func slowdown(turnaround, runtime sim.Time) float64 {
	return float64(turnaround) / float64(runtime)
}

// bsld is the bounded slowdown max(1, turnaround / max(runtime, tau)).
func bsld(turnaround, runtime, tau sim.Time) float64 {
	return max(1, float64(turnaround)/float64(max(runtime, tau)))
}
