package metrics

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// Recorder is a sim.Observer that writes a run directory (see the package
// doc). Observer methods cannot return errors, so the first write error is
// kept, later events are ignored, and Close returns it.
//
// Use: NewRecorder, pass it to sim.NewEngine, Run, then Close on success
// or Abort on failure. One of the two must be called: the recorder
// goroutine (feed.go) and each file's encoder goroutine only stop there.
// The observer methods must be called from one goroutine, the engine's.
type Recorder struct {
	dir string
	c   *sim.Cluster
	opt Options
	mem memory.Allocator
	res []string // snake_case resource names, cluster order
	cal calendar // the epoch, when known

	jobs   *jobsTable
	series *seriesTable
	nodes  *nodeUsage
	frag   *fragTracker
	ten    *tenantLedger
	tally  tally
	calib  calibration
	idleW  float64 // the cluster's draw with nothing running

	// earlier is the energy of stopped runs of jobs queued again, added to
	// the job's energy when it ends.
	earlier map[*sim.JobRun]float64

	// moved is set by every job event and cleared by Stepped. A step
	// without one (a scheduler's WakeAt that started nothing) changes no
	// draw and may lie past the makespan, so it does not advance the
	// energy integral.
	moved    bool
	finished bool
	end      sim.Time // end of the makespan, known at Finished
	summary  []col    // the summary row written, once Close has written it
	events   int64    // events the engine reported to Finished

	// The fields above belong to the recorder goroutine until Finished,
	// Close or Abort has stopped it; those below to the engine's (the
	// caller's), but for err.
	feed     feed                          // copies the events to the recorder goroutine (feed.go)
	crashed  atomic.Pointer[recorderPanic] // the recorder goroutine's panic
	raised   bool                          // crashed was raised on the engine's goroutine
	aborting atomic.Bool                   // Abort: drop the events left
	errMu    sync.Mutex                    // guards err
	err      error
	failed   atomic.Bool // err is set
	tables   []*table    // every file opened, for Close and Abort
	closed   bool
}

var (
	_ sim.Observer      = (*Recorder)(nil)
	_ sim.NodeObserver  = (*Recorder)(nil)
	_ sim.PowerObserver = (*Recorder)(nil)
)

// NewRecorder creates dir if needed and opens the streamed tables in it.
func NewRecorder(dir string, c *sim.Cluster, opt Options) (*Recorder, error) {
	return newRecorder(dir, c, opt, memory.DefaultAllocator)
}

func newRecorder(dir string, c *sim.Cluster, opt Options, mem memory.Allocator) (*Recorder, error) {
	if c == nil {
		return nil, errors.New("metrics: nil cluster")
	}
	if err := opt.normalize(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	r := &Recorder{dir: dir, c: c, opt: opt, mem: mem, res: resourceNames(c.Resources), cal: newCalendar(opt.Epoch, opt.TimeZone),
		nodes: newNodeUsage(c), frag: newFragTracker(c)}
	if i := mainResourceOf(c); i >= 0 {
		r.calib.mainRes = c.Resources[i]
	}
	r.calib.resolution, r.calib.from, r.calib.until = opt.CalibResolution, opt.CalibFrom, opt.CalibUntil
	r.tally.price, r.tally.carbon = opt.Price, opt.Carbon
	r.ten = newTenantLedger(c, &r.opt)
	for _, n := range c.Nodes {
		r.idleW += n.Power.IdleW
	}
	if err := checkSummaryNames(r.summaryCols(FinalInfo{}, 0)); err != nil {
		return nil, err
	}
	var err error
	if r.jobs, err = newJobsTable(dir, opt.Format, opt.Tau, r.cal, opt.Measured, mem); err != nil {
		return nil, err
	}
	r.jobs.unpowered = !c.HasPowerModel()
	r.jobs.cur.reserve(min(opt.ExpectedJobs, r.jobs.cut, stagedRows))
	r.jobs.expect = int64(opt.ExpectedJobs)
	r.tables = append(r.tables, r.jobs.table)
	if r.series, err = newSeriesTable(dir, opt.Format, c, r.res, mem, r.frag, &r.nodes.power.notOn, opt.Price, opt.Carbon, r.cal); err != nil {
		r.Abort()
		return nil, err
	}
	r.tables = append(r.tables, r.series.table)
	r.series.cur.reserve(min(seriesRowsPerJob*opt.ExpectedJobs, r.series.cut, stagedRows), r.series.R)
	r.series.expect = int64(seriesRowsPerJob * opt.ExpectedJobs)
	r.feed.init(len(c.Nodes), len(c.Resources))
	r.startWorker()
	return r, nil
}

// Dir is the run directory.
func (r *Recorder) Dir() string { return r.dir }

// Err returns the first error met while recording, if any. The CLI may
// poll it to stop a run early; Close returns it anyway.
func (r *Recorder) Err() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

// Fail records an error met by a companion writer (the decisions table):
// the first error wins and Close returns it.
func (r *Recorder) Fail(err error) { r.fail(err) }

// fail keeps err if it is the first; the recorder goroutine and the
// engine's (Fail) may both call it.
func (r *Recorder) fail(err error) {
	if err == nil {
		return
	}
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if r.err == nil {
		r.err = fmt.Errorf("metrics: %w", err)
		r.failed.Store(true)
	}
}

// ok says no error was met yet: rows are still worth staging.
func (r *Recorder) ok() bool { return !r.failed.Load() }

// apply plays a batch of copied events, on the recorder goroutine.
func (r *Recorder) apply(b *eventBatch) {
	for i := range b.events {
		ev := &b.events[i]
		nodes := b.nodes[ev.from:ev.to]
		switch ev.kind {
		case evSubmitted:
			r.submitted(ev)
		case evStarted:
			r.started(ev, nodes)
		case evEnded:
			r.ended(ev, nodes)
		case evRequeued:
			r.requeued(ev, nodes)
		case evRejected:
			r.tally.rejected++
			if r.ok() {
				r.fail(r.jobs.add(ev, nil, sim.Rejected, 0))
			}
		case evNodeChanged:
			r.nodes.setDown(ev.now, int(ev.node), ev.flag)
			r.moved = true
		case evPowerChanged:
			p := &r.nodes.power
			p.init(len(r.c.Nodes))
			p.set(ev.now, int(ev.node), sim.PowerState(ev.status))
			r.moved = true
		case evStepped:
			r.stepped(ev.now, b.step(ev.step, len(r.res)))
		case evLeftQueued:
			r.tally.unfinished++
			if r.ok() {
				r.fail(r.jobs.add(ev, nil, sim.Queued, 0))
			}
		case evLeftRunning:
			r.tally.unfinished++
			// Charged up to now, not released: the job is still running.
			energy := r.nodes.charge(nodes, ev.needs, ev.start, ev.now, false)
			if r.ok() {
				r.fail(r.jobs.add(ev, nodes, sim.Running, energy))
			}
		case evFinished:
			r.finish(ev.now, b.steps[ev.step].events)
		}
	}
}

func (r *Recorder) submitted(ev *event) {
	t := &r.tally
	if t.submitted == 0 {
		t.firstSubmit = ev.now
		// Energy is integrated from the first submit, at the idle draw
		// until the first step says otherwise.
		t.lastStep, t.lastPower = ev.now, r.idleW
	}
	t.submitted++
	if r.opt.Measured != nil && ev.measured {
		t.measured++
	}
	t.lastSubmit = ev.now
	r.ten.submitted(ev.now, ev.run, ev.job)
	r.calib.submitted(ev.job)
	r.moved = true
}

func (r *Recorder) started(ev *event, nodes []int32) {
	r.nodes.start(nodes, ev.start)
	r.ten.started(ev, nodes)
	r.moved = true
	if ev.restarts > 0 || !ev.measured {
		return // a restart (the wait was counted at the first start), or not measured
	}
	r.calib.started(ev.job, ev.start, ev.submitted)
	w := (ev.start - ev.job.Submit).Seconds()
	t := &r.tally
	t.waits.add(w)
	t.waitSum += w
	t.waitMax = max(t.waitMax, w)
}

func (r *Recorder) ended(ev *event, nodes []int32) {
	r.tally.overhead += ev.overhead
	energy := r.nodes.charge(nodes, ev.needs, ev.start, ev.end, true) + r.earlier[ev.run]
	delete(r.earlier, ev.run)
	r.moved = true
	t := &r.tally
	if ev.status == sim.Killed {
		t.killed++
	} else {
		t.completed++
	}
	t.lastEnd = max(t.lastEnd, ev.end)
	run, turn := ev.end-ev.first, ev.end-ev.job.Submit
	b := bsld(turn, run, r.opt.Tau)
	if ev.measured {
		if run > 0 {
			t.sdSum += slowdown(turn, run)
			t.sdN++
		}
		t.bsldSum += b
		t.bsldN++
	}
	r.ten.ended(ev, nodes, b)
	if r.ok() {
		r.fail(r.jobs.add(ev, nodes, ev.status, energy))
	}
}

// requeued charges the stopped run's use and energy, and counts the
// job's lost work.
func (r *Recorder) requeued(ev *event, nodes []int32) {
	if r.earlier == nil {
		r.earlier = map[*sim.JobRun]float64{}
	}
	r.earlier[ev.run] += r.nodes.charge(nodes, ev.needs, ev.start, ev.now, true)
	r.ten.stopped(ev, nodes)
	r.moved = true
	r.tally.restarts++
	r.tally.lostWork += ev.lost
	r.tally.lostNodeSeconds += ev.lost.Seconds() * float64(distinctNodes(nodes))
	if ev.flag {
		r.tally.preemptions++
	}
}

// distinctNodes counts the different nodes in a task placement.
func distinctNodes(nodes []int32) int {
	seen := make(map[int32]bool, len(nodes))
	for _, n := range nodes {
		seen[n] = true
	}
	return len(seen)
}

func (r *Recorder) stepped(now sim.Time, v stepView) {
	if r.moved {
		r.moved = false
		r.tally.advance(now)
		r.tally.lastPower = v.powerW
		r.ten.sample()
	}
	if r.ok() {
		r.fail(r.series.step(now, v))
	}
}

// finish fixes the makespan once the jobs left are staged. It ends at the
// last job end or submit (a rejected job "ends" at its submit), or at now
// when jobs are left.
func (r *Recorder) finish(now sim.Time, events int64) {
	t := &r.tally
	r.events = events
	r.end = max(t.lastEnd, t.lastSubmit)
	if t.unfinished > 0 {
		r.end = max(r.end, now)
	}
	r.nodes.finish(r.end)
	t.advance(r.end)
	r.frag.advance(r.end)
	r.ten.advance(r.end)
	if r.ok() {
		r.fail(r.series.finish())
	}
	if r.ok() {
		r.fail(r.jobs.flush(true))
	}
	r.finished = true
}

// Close writes the nodes, tenants and summary tables, finishes every file and
// renames them into place, summary.csv last. It fails, leaving no final
// file behind, when recording failed or the run did not reach Finished.
func (r *Recorder) Close(final FinalInfo) error {
	if r.closed {
		return errors.New("metrics: recorder already closed")
	}
	r.stopWorker(false)
	r.rethrow()
	err := r.Err()
	if err == nil && !r.finished {
		err = errors.New("metrics: the run did not finish; nothing written")
	}
	if err == nil {
		err = r.write(final)
	}
	if err != nil {
		r.summary = nil
		r.Abort()
		return err
	}
	r.closed = true
	r.releaseBatches()
	return nil
}

// releaseBatches hands the staging batches to the next recorder (reuse.go),
// once every encoder has stopped.
func (r *Recorder) releaseBatches() {
	if r.feed.stopped && r.feed.cur != nil {
		r.feed.release()
	}
	if r.jobs != nil {
		r.jobs.release()
	}
	if r.series != nil {
		r.series.release()
	}
}

func (r *Recorder) write(final FinalInfo) error {
	// The tables written during the run are complete: their encoders finish
	// the last records and their files are synced while the summary is
	// computed, which nothing else runs beside.
	during := len(r.tables)
	waitDuring := finishTables(r.tables)
	err := r.writeFinalTables(final)
	if err == nil {
		err = finishTables(r.tables[during:])()
	}
	if werr := waitDuring(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	// The last table opened is summary.csv: renaming it last makes its
	// presence the mark of a complete run directory.
	for _, tb := range r.tables {
		if err := tb.file.rename(); err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
	}
	SyncDir(r.dir)
	return nil
}

// writeFinalTables writes the tables made at the end of the run: nodes,
// tenants and the summary.
func (r *Recorder) writeFinalTables(final FinalInfo) error {
	cols := r.summaryCols(final, r.end)
	r.summary = cols
	nodes, err := newNodesTable(r.dir, r.opt.Format, r.res, r.mem)
	if err != nil {
		return err
	}
	r.tables = append(r.tables, nodes)
	if err := r.nodes.writeNodes(nodes, r.c, r.res, r.end-r.tally.firstSubmit, r.end); err != nil {
		return err
	}
	tenants, err := writeTenants(r.dir, r.opt.Format, r.ten.rows(), r.mem)
	if tenants != nil {
		r.tables = append(r.tables, tenants)
	}
	if err != nil {
		return err
	}
	// summary.csv is always written; with --format csv it is the summary
	// table itself.
	formats := []string{r.opt.Format}
	if r.opt.Format != FormatCSV {
		formats = append(formats, FormatCSV)
	}
	schema := summarySchema(cols, r.cal)
	for _, f := range formats {
		tb, err := newTable(r.dir, "summary", f, schema, r.mem)
		if err != nil {
			return err
		}
		r.tables = append(r.tables, tb)
		if err := writeSummary(tb, cols); err != nil {
			return err
		}
	}
	return nil
}

// finishTables finishes tbs at once, so the file system can commit its
// journal for them together rather than once per file, and returns a wait
// that reports the first error.
func finishTables(tbs []*table) (wait func() error) {
	errs := make([]error, len(tbs))
	var wg sync.WaitGroup
	for i, tb := range tbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = tb.finish()
		}()
	}
	return func() error {
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				return fmt.Errorf("metrics: %s: %w", filepath.Base(tbs[i].file.final), err)
			}
		}
		return nil
	}
}

// Abort removes every temp file; no final-named file is created. It is
// safe after a failed Close and a no-op after a successful one.
func (r *Recorder) Abort() {
	if r.closed {
		return
	}
	r.closed = true
	r.stopWorker(false)
	for _, tb := range r.tables {
		tb.abort()
	}
	r.releaseBatches()
	r.rethrow() // a recorder bug is not hidden by the error that aborted the run
}
