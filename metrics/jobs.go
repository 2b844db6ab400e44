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
	{Name: "restarts", Type: arrow.PrimitiveTypes.Int64},                       // times a node event stopped it and it was queued again
	{Name: "lost_work_s", Type: arrow.PrimitiveTypes.Float64},                  // run time those stops threw away (since the last checkpoint)
}, nil)

// jobRow is one job staged on the engine's goroutine: only what the
// JobRun will not keep (times, strings, the node list) and no derived
// value; the encoder computes waits and slowdowns. It holds no pointer:
// its strings are copied into the batch's text, so the garbage collector
// never scans a batch and appends need no write barrier.
type jobRow struct {
	submit, start, end, walltime sim.Time
	lost                         sim.Time
	restarts                     int64
	energyJ                      float64
	tasks, nodes                 int64
	// text[k] is where string k (see the str* constants) ends in the
	// batch's text; it starts where string k−1 ends.
	text  [numStrs]uint32
	state sim.JobStatus
}

// The staged strings of a job, in text order.
const (
	strID = iota
	strUser
	strGroup
	strQueue
	strReason
	strNodeList
	numStrs
)

// jobBatch is up to one record of staged rows. Two batches take turns:
// the engine fills one while the encoder turns the other into a record.
type jobBatch struct {
	rows []jobRow
	text []byte // every row's strings, back to back
}

// jobsTable stages job rows and streams them to the jobs file.
type jobsTable struct {
	*table
	cur   *jobBatch
	free  chan *jobBatch // batches the encoder is done with
	cut   int            // rows per record
	total int64          // rows in all
	tau   sim.Time
	nodes []int32 // scratch copy of a job's nodes, sorted for node_list

	// The encoder's builders.
	id, user, group, queue, state, reason, nodeList                                       *array.StringBuilder
	tasks, nNodes, restarts                                                               *array.Int64Builder
	submit, start, end, wait, runtime, walltime, turnaround, slowdown, bsld, energy, lost *array.Float64Builder
}

func newJobsTable(dir, format string, tau sim.Time, mem memory.Allocator) (*jobsTable, error) {
	tb, err := newTable(dir, "jobs", format, jobsSchema, mem)
	if err != nil {
		return nil, err
	}
	b := builders{tb.rb}
	t := &jobsTable{
		table: tb, cur: &jobBatch{}, free: make(chan *jobBatch, 2), cut: rowsPerRecord, tau: tau,
		id: b.str("job_id"), user: b.str("user"), group: b.str("group"), queue: b.str("queue"),
		state: b.str("state"), reason: b.str("reason"), nodeList: b.str("node_list"),
		tasks: b.i64("tasks"), nNodes: b.i64("nodes"), restarts: b.i64("restarts"),
		submit: b.f64("submit_s"), start: b.f64("start_s"), end: b.f64("end_s"), wait: b.f64("wait_s"),
		runtime: b.f64("runtime_s"), walltime: b.f64("walltime_s"), turnaround: b.f64("turnaround_s"),
		slowdown: b.f64("slowdown"), bsld: b.f64("bsld"), energy: b.f64("energy_j"), lost: b.f64("lost_work_s"),
	}
	t.free <- &jobBatch{}
	return t, nil
}

// add stages j's row as of state. It runs once per job on the engine's
// goroutine and allocates nothing once the batches have grown.
func (t *jobsTable) add(j *sim.JobRun, state sim.JobStatus, energyJ float64) error {
	job := j.Job
	b := t.cur
	// A job stopped by a node event and run again counts from its first
	// start: its wait is until it first ran, its run time spans every try.
	row := jobRow{
		submit: job.Submit, start: j.FirstStart, end: j.End, walltime: job.Walltime,
		energyJ: energyJ, tasks: int64(job.Tasks), state: state, lost: j.LostWork, restarts: int64(j.Restarts),
	}
	for k, str := range [...]string{job.ID, job.User, job.Group, job.Queue, j.Reason} {
		b.text = append(b.text, str...)
		row.text[k] = uint32(len(b.text))
	}
	if started(state) {
		t.nodes = append(t.nodes[:0], j.Nodes...)
		var n int
		b.text, n = appendNodeRanges(b.text, t.nodes)
		row.nodes = int64(n)
	}
	row.text[strNodeList] = uint32(len(b.text))
	b.rows = append(b.rows, row)
	t.total++
	if len(b.rows) >= t.cut || len(b.text) >= maxBatchText {
		return t.flush()
	}
	return nil
}

// maxBatchText cuts a record early when its strings pile up (huge
// scattered node lists), which keeps text offsets within uint32 and the
// batch's memory bounded.
const maxBatchText = 256 << 20

// flush sends the staged rows to the encoder and takes the other batch.
func (t *jobsTable) flush() error {
	b := t.cur
	if len(b.rows) == 0 {
		return nil
	}
	err := t.send(func(*array.RecordBuilder) {
		t.build(b)
		b.rows, b.text = b.rows[:0], b.text[:0]
		t.free <- b
	})
	if err != nil {
		return err
	}
	t.cur = <-t.free
	return nil
}

func started(s sim.JobStatus) bool {
	return s == sim.Running || s == sim.Completed || s == sim.Killed
}

// build appends a batch to the builders, on the encoder: completed and
// killed jobs have every time; running ones (at the end of the run) a
// start but no end; queued and rejected ones neither.
func (t *jobsTable) build(b *jobBatch) {
	var from uint32
	str := func(r *jobRow, k int) []byte {
		s := b.text[from:r.text[k]]
		from = r.text[k]
		return s
	}
	for i := range b.rows {
		r := &b.rows[i]
		// The embedded BinaryBuilders take bytes: no string is made.
		t.id.BinaryBuilder.Append(str(r, strID))
		t.user.BinaryBuilder.Append(str(r, strUser))
		t.group.BinaryBuilder.Append(str(r, strGroup))
		t.queue.BinaryBuilder.Append(str(r, strQueue))
		t.reason.BinaryBuilder.Append(str(r, strReason))
		t.nodeList.BinaryBuilder.Append(str(r, strNodeList))
		t.tasks.Append(r.tasks)
		t.submit.Append(r.submit.Seconds())
		if started(r.state) {
			t.start.Append(r.start.Seconds())
			t.wait.Append((r.start - r.submit).Seconds())
		} else {
			t.start.AppendNull()
			t.wait.AppendNull()
		}
		if r.state == sim.Completed || r.state == sim.Killed {
			run, turn := r.end-r.start, r.end-r.submit
			t.end.Append(r.end.Seconds())
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
		if r.walltime == sim.NoWalltime {
			t.walltime.AppendNull()
		} else {
			t.walltime.Append(r.walltime.Seconds())
		}
		t.state.Append(r.state.String())
		t.nNodes.Append(r.nodes)
		t.energy.Append(r.energyJ)
		t.restarts.Append(r.restarts)
		t.lost.Append(r.lost.Seconds())
	}
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
