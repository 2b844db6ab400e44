package metrics

import (
	"slices"
	"unsafe"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/bitutil"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// jobsFields are the jobs table's columns: one row per submitted job, in
// the order the jobs left the system (rejected, ended, or still
// queued/running when the run finished). Times are seconds; null means
// "did not happen" (a rejected job has no start) or "unknown" (no
// requested walltime). With a known epoch, calendar timestamps follow
// (jobsSchema).
var jobsFields = []arrow.Field{
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
	{Name: "energy_j", Type: arrow.PrimitiveTypes.Float64, Nullable: true},     // dynamic energy, above the nodes' idle draw; null without a power model
	{Name: "restarts", Type: arrow.PrimitiveTypes.Int64},                       // times a node event stopped it and it was queued again
	{Name: "lost_work_s", Type: arrow.PrimitiveTypes.Float64},                  // run time those stops threw away (since the last checkpoint)
	// What the job asked for, as the trace says it, whatever became of it.
	{Name: "requested_procs", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, // processors (cores) asked for; null when the trace gives none
	{Name: "request", Type: arrow.BinaryTypes.String},                           // per-task request in trace order, "cpu=4,mem=2048"
	{Name: "partition", Type: arrow.BinaryTypes.String},
	{Name: "qos", Type: arrow.BinaryTypes.String},
	{Name: "priority", Type: arrow.PrimitiveTypes.Int64},                           // the trace's priority, 0 when it has none
	{Name: "trace_runtime_s", Type: arrow.PrimitiveTypes.Float64},                  // the run time the trace gives, kept for jobs that never ran
	{Name: "recorded_start_s", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, // when the traced system started it; null when not recorded
}

// jobsCalendarFields follow jobsFields when the epoch is known: the
// submit_s, start_s and end_s instants as UTC timestamps, null alike.
var jobsCalendarFields = []arrow.Field{
	{Name: "submit_time", Type: timestampType},
	{Name: "start_time", Type: timestampType, Nullable: true},
	{Name: "end_time", Type: timestampType, Nullable: true},
}

func jobsSchema(cal calendar, measuring bool) *arrow.Schema {
	fields := jobsFields
	if cal.known {
		fields = append(slices.Clip(fields), jobsCalendarFields...)
	}
	if measuring {
		fields = append(slices.Clip(fields), jobsMeasuredField)
	}
	return cal.schema(fields)
}

// jobRow is one job staged on the recorder goroutine: only what the
// event's copy will not keep (times, strings, the node list) and no derived
// value; the encoder computes waits and slowdowns. It holds no pointer:
// its strings are copied into the batch's text, so the garbage collector
// never scans a batch and appends need no write barrier.
type jobRow struct {
	submit, start, end, walltime sim.Time
	lost                         sim.Time
	traceRuntime, recordedStart  sim.Time
	restarts                     int64
	energyJ                      float64
	tasks, nodes                 int64
	requestedProcs, priority     int64
	// text[k] is where string k (see the str* constants) ends in the
	// batch's text; it starts where string k−1 ends.
	text     [numStrs]uint32
	state    sim.JobStatus
	recorded bool
	measured bool
}

// The staged strings of a job, in text order.
const (
	strID = iota
	strUser
	strGroup
	strQueue
	strReason
	strPartition
	strQOS
	strNodeList
	strRequest
	numStrs
)

// jobBatch is up to jobsTable.staged rows. Two batches take turns: the
// recorder goroutine fills one while the encoder adds the other's rows to
// the record it builds, so a record of 64k rows is staged in pieces;
// staging a whole record at a time held 27 MB of batches.
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
	// The rows and text bytes sent to the encoder for the record it
	// builds, on the recorder goroutine.
	recRows, recText int
	staged           int         // rows per staged batch: stagedRows, fewer in tests
	building         *jobColumns // the encoder's record under way, or nil
	// expect is Options.ExpectedJobs: the last record's columns are
	// sized for the rows still expected rather than a whole record.
	expect int64
	tau    sim.Time
	cal    calendar
	// measured is Options.Measured: nil when every job is measured and
	// the table has no measured column.
	measured func(*sim.JobRun) bool
	nodes    []int32 // scratch copy of a job's nodes, sorted for node_list
	// unpowered: the cluster has no power model, so energy_j is null.
	unpowered bool
}

func newJobsTable(dir, format string, tau sim.Time, cal calendar, measured func(*sim.JobRun) bool, mem memory.Allocator) (*jobsTable, error) {
	tb, err := newStreamedTable(dir, "jobs", format, jobsSchema(cal, measured != nil), mem)
	if err != nil {
		return nil, err
	}
	t := &jobsTable{table: tb, cur: idleJobBatches.get(), free: make(chan *jobBatch, 2), cut: rowsPerRecord, staged: stagedRows, tau: tau, cal: cal, measured: measured}
	t.free <- idleJobBatches.get()
	return t, nil
}

// reserve gives a batch room for rows rows. The recorder calls it on the
// first batch with Options.ExpectedJobs, and flush on the batch it takes
// after a full one: the run has filled one batch, so it will likely fill
// this one too. Grown by append from empty, each of the two batches was
// copied a dozen times into fresh memory, which cost a tenth of a
// CEA-Curie replay's CPU time.
func (b *jobBatch) reserve(rows int) {
	if cap(b.rows) < rows {
		b.rows = make([]jobRow, 0, rows)
	}
	if want := rows * batchTextPerRow; cap(b.text) < want {
		b.text = make([]byte, 0, want)
	}
}

// stagedRows is the rows of a staged batch (at most a record's).
const stagedRows = 16 << 10

// batchTextPerRow is the text room reserved per row: ids, names, a short
// node list and request (the text grows past it when needed).
const batchTextPerRow = 64

// add stages the row of the job ev copies, on nodes, as of state. It runs
// once per job on the recorder goroutine and allocates nothing once the
// batches have grown.
func (t *jobsTable) add(ev *event, nodes []int32, state sim.JobStatus, energyJ float64) error {
	job := ev.job
	b := t.cur
	// A job stopped by a node event and run again counts from its first
	// start: its wait is until it first ran, its run time spans every try.
	row := jobRow{
		submit: job.Submit, start: ev.first, end: ev.end, walltime: job.Walltime,
		energyJ: energyJ, tasks: int64(job.Tasks), state: state, lost: ev.lostWork, restarts: ev.restarts,
		traceRuntime: job.Runtime, recordedStart: job.RecordedStart, recorded: job.Recorded,
		requestedProcs: job.RequestedProcs, priority: int64(job.Priority),
		measured: ev.measured,
	}
	for k, str := range [...]string{job.ID, job.User, job.Group, job.Queue, ev.reason, job.Partition, job.QOS} {
		b.text = append(b.text, str...)
		row.text[k] = uint32(len(b.text))
	}
	if started(state) {
		t.nodes = append(t.nodes[:0], nodes...)
		var n int
		b.text, n = appendNodeRanges(b.text, t.nodes)
		row.nodes = int64(n)
	}
	row.text[strNodeList] = uint32(len(b.text))
	b.text = appendRequest(b.text, job.Request)
	row.text[strRequest] = uint32(len(b.text))
	b.rows = append(b.rows, row)
	t.total++
	if len(b.rows) >= t.staged || t.recordFull() {
		return t.flush(false)
	}
	return nil
}

// recordFull says the staged rows complete the record under way: it has
// cut rows, or its strings pile up past maxBatchText.
func (t *jobsTable) recordFull() bool {
	return t.recRows+len(t.cur.rows) >= t.cut || t.recText+len(t.cur.text) >= maxBatchText
}

// maxBatchText cuts a record early when its strings pile up (huge
// scattered node lists), which keeps text offsets within uint32 and the
// batch's memory bounded.
const maxBatchText = 256 << 20

// flush sends the staged rows to the encoder and takes the other batch;
// the encoder cuts its record when they complete it, or at the end.
func (t *jobsTable) flush(end bool) error {
	b := t.cur
	if len(b.rows) == 0 && (!end || t.recRows == 0) {
		return nil
	}
	last := end || t.recordFull()
	more := len(b.rows) >= t.staged // the next batch will likely fill too
	// The rows the record will likely reach: a record's, or those still
	// expected.
	want := len(b.rows)
	if !last {
		want = max(want, t.cut)
		if t.expect > 0 {
			want = max(len(b.rows), min(t.cut, int(t.expect-t.total)+t.recRows+len(b.rows)))
		}
	}
	t.recRows, t.recText = t.recRows+len(b.rows), t.recText+len(b.text)
	if last {
		t.recRows, t.recText = 0, 0
	}
	err := t.sendRecord(func() arrow.Record {
		if t.building == nil {
			t.building = t.newJobColumns(want, b)
		}
		t.fill(t.building, b)
		b.rows, b.text = b.rows[:0], b.text[:0]
		t.free <- b
		if !last {
			return nil
		}
		c := t.building
		t.building = nil
		return t.record(c)
	})
	if err != nil {
		return err
	}
	t.cur = <-t.free
	if more {
		t.cur.reserve(t.staged)
	}
	return nil
}

// release hands the table's batches to the next recorder. The encoder
// must have stopped.
func (t *jobsTable) release() {
	for _, b := range []*jobBatch{t.cur, <-t.free} {
		if b != nil && cap(b.text)+cap(b.rows)*int(unsafe.Sizeof(jobRow{})) <= maxKeptBatchBytes {
			b.rows, b.text = b.rows[:0], b.text[:0]
			idleJobBatches.put(b)
		}
	}
	t.cur = nil
}

func started(s sim.JobStatus) bool {
	return s == sim.Running || s == sim.Completed || s == sim.Killed
}

// jobColumns are the columns of the record being built on the encoder,
// sized for the rows the record may reach; staged batches fill them in
// turn and the last one cuts the record (flush).
type jobColumns struct {
	n                                    int // rows filled
	strs                                 [numStrs]*stringColumn
	state                                *stringColumn
	tasks, nodes, restarts, priority     []int64
	submit, start, end, wait, runtime    *floatColumn
	walltime, turnaround, slowdown, bsld *floatColumn
	energy, lost, traceRun, recorded     *floatColumn
	procs                                *intColumn
	submitAt, startAt, endAt             *intColumn // with a known epoch
	measured                             []byte     // bitmap, with Options.Measured
}

// newJobColumns makes columns for up to n rows. b, the first batch, guesses
// the strings' sizes (the columns grow past the guess when needed).
func (t *jobsTable) newJobColumns(n int, b *jobBatch) *jobColumns {
	var size [numStrs]int // bytes of each string column in b
	var from uint32
	for i := range b.rows {
		for k, end := range b.rows[i].text {
			size[k] += int(end - from)
			from = end
		}
	}
	c := &jobColumns{
		state: newStringColumn(n, len("completed")*n),
		tasks: make([]int64, n), nodes: make([]int64, n), restarts: make([]int64, n), priority: make([]int64, n),
		submit: newFloatColumn(n), start: newFloatColumn(n), end: newFloatColumn(n), wait: newFloatColumn(n), runtime: newFloatColumn(n),
		walltime: newFloatColumn(n), turnaround: newFloatColumn(n), slowdown: newFloatColumn(n), bsld: newFloatColumn(n),
		energy: newFloatColumn(n), lost: newFloatColumn(n), traceRun: newFloatColumn(n), recorded: newFloatColumn(n),
		procs: newIntColumn(arrow.PrimitiveTypes.Int64, n),
	}
	for k := range c.strs {
		c.strs[k] = newStringColumn(n, size[k]*n/max(len(b.rows), 1))
	}
	if t.cal.known {
		c.submitAt, c.startAt, c.endAt = newIntColumn(timestampType, n), newIntColumn(timestampType, n), newIntColumn(timestampType, n)
	}
	if t.measured != nil {
		c.measured = make([]byte, bitutil.BytesForBits(int64(n)))
	}
	return c
}

// grow lengthens the columns to n rows, for a record longer than expected.
func (c *jobColumns) grow(n int) {
	for _, f := range c.floats() {
		f.grow(c.n, n)
	}
	for _, f := range c.ints() {
		if f != nil {
			f.grow(c.n, n)
		}
	}
	for _, v := range []*[]int64{&c.tasks, &c.nodes, &c.restarts, &c.priority} {
		*v = growSlice(*v, n)
	}
	if c.measured != nil {
		c.measured = growSlice(c.measured, int(bitutil.BytesForBits(int64(n))))
	}
}

func (c *jobColumns) floats() []*floatColumn {
	return []*floatColumn{c.submit, c.start, c.end, c.wait, c.runtime, c.walltime, c.turnaround, c.slowdown, c.bsld,
		c.energy, c.lost, c.traceRun, c.recorded}
}

// ints are the nullable int columns, the timestamps nil without an epoch.
func (c *jobColumns) ints() []*intColumn {
	return []*intColumn{c.procs, c.submitAt, c.startAt, c.endAt}
}

// fill adds a batch's rows to the columns, on the encoder: completed and
// killed jobs have every time; running ones (at the end of the run) a
// start but no end; queued and rejected ones neither.
func (t *jobsTable) fill(c *jobColumns, b *jobBatch) {
	if need := c.n + len(b.rows); need > len(c.tasks) {
		c.grow(min(t.cut, max(need, 2*len(c.tasks))))
	}
	var from uint32
	for k := range b.rows {
		r, i := &b.rows[k], c.n+k
		for s, end := range r.text {
			c.strs[s].add(b.text[from:end])
			from = end
		}
		c.tasks[i] = r.tasks
		c.submit.vals[i] = r.submit.Seconds()
		if started(r.state) {
			c.start.vals[i] = r.start.Seconds()
			c.wait.vals[i] = (r.start - r.submit).Seconds()
		} else {
			c.start.setNull(i)
			c.wait.setNull(i)
		}
		if r.state == sim.Completed || r.state == sim.Killed {
			run, turn := r.end-r.start, r.end-r.submit
			c.end.vals[i] = r.end.Seconds()
			c.runtime.vals[i] = run.Seconds()
			c.turnaround.vals[i] = turn.Seconds()
			if run > 0 {
				c.slowdown.vals[i] = slowdown(turn, run)
			} else {
				c.slowdown.setNull(i)
			}
			c.bsld.vals[i] = bsld(turn, run, t.tau)
		} else {
			c.end.setNull(i)
			c.runtime.setNull(i)
			c.turnaround.setNull(i)
			c.slowdown.setNull(i)
			c.bsld.setNull(i)
		}
		if r.walltime == sim.NoWalltime {
			c.walltime.setNull(i)
		} else {
			c.walltime.vals[i] = r.walltime.Seconds()
		}
		c.state.addString(r.state.String())
		c.nodes[i] = r.nodes
		if t.unpowered {
			c.energy.setNull(i)
		} else {
			c.energy.vals[i] = r.energyJ
		}
		c.restarts[i] = r.restarts
		c.lost.vals[i] = r.lost.Seconds()
		if r.requestedProcs > 0 {
			c.procs.vals[i] = r.requestedProcs
		} else {
			c.procs.setNull(i)
		}
		c.priority[i] = r.priority
		c.traceRun.vals[i] = r.traceRuntime.Seconds()
		if r.recorded {
			c.recorded.vals[i] = r.recordedStart.Seconds()
		} else {
			c.recorded.setNull(i)
		}
		if t.cal.known {
			t.calendarRow(i, r, c.submitAt, c.startAt, c.endAt)
		}
		if c.measured != nil && r.measured {
			bitutil.SetBit(c.measured, i)
		}
	}
	c.n += len(b.rows)
}

// record cuts the filled rows into a record, the arrays exactly as a
// record made at once from them.
func (t *jobsTable) record(c *jobColumns) arrow.Record {
	n := c.n
	for _, f := range c.floats() {
		f.truncate(n)
	}
	for _, f := range c.ints() {
		if f != nil {
			f.truncate(n)
		}
	}
	// In jobsSchema's order.
	cols := []arrow.Array{
		c.strs[strID].array(), c.strs[strUser].array(), c.strs[strGroup].array(), c.strs[strQueue].array(),
		intArray(c.tasks[:n]), c.submit.array(), c.start.array(), c.end.array(), c.wait.array(), c.runtime.array(),
		c.walltime.array(), c.turnaround.array(), c.slowdown.array(), c.bsld.array(),
		c.state.array(), c.strs[strReason].array(), intArray(c.nodes[:n]), c.strs[strNodeList].array(),
		c.energy.array(), intArray(c.restarts[:n]), c.lost.array(),
		c.procs.array(), c.strs[strRequest].array(), c.strs[strPartition].array(), c.strs[strQOS].array(),
		intArray(c.priority[:n]), c.traceRun.array(), c.recorded.array(),
	}
	if t.cal.known {
		cols = append(cols, c.submitAt.array(), c.startAt.array(), c.endAt.array())
	}
	if t.measured != nil {
		cols = append(cols, measuredArray(c.measured[:bitutil.BytesForBits(int64(n))], n))
	}
	return newRecord(t.schema, cols, n)
}

// calendarRow fills row i of the timestamp columns, null where the
// second counts are.
func (t *jobsTable) calendarRow(i int, r *jobRow, submitAt, startAt, endAt *intColumn) {
	submitAt.vals[i] = t.cal.at(r.submit)
	if started(r.state) {
		startAt.vals[i] = t.cal.at(r.start)
	} else {
		startAt.setNull(i)
	}
	if r.state == sim.Completed || r.state == sim.Killed {
		endAt.vals[i] = t.cal.at(r.end)
	} else {
		endAt.setNull(i)
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
