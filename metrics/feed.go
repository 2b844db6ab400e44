package metrics

import (
	"fmt"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/schedsim/schedsim/sim"
)

// The feed: the Recorder's observer methods run on the engine's goroutine
// and only copy what recording needs into an event batch; a recorder
// goroutine of its own applies the batches, in order, to the tallies,
// tenants, node usage, fragmentation and the staged table rows. The
// engine thus pays a copy per event, the recording (about a third of its
// time on a replay) overlaps it, and since the events are applied in the
// engine's order by one goroutine the outputs do not depend on
// scheduling.
//
// What the recorder keeps of a JobRun is its identity (the tenant it
// caches in ObserverState, which the engine never touches, and the energy
// of its earlier runs), the *sim.Job (never changed: a job held back by
// its dependencies gets a new Job, and the copy holds the one of the
// event) and its compiled request (shared and never changed). Everything
// the engine changes later — status, times, restarts, reason, node list —
// is copied. At a step the copy holds the counts, the draw, the
// allocations, and the free amounts of the nodes that changed since the
// last step, from which the recorder keeps its own image of the free
// amounts for fragmentation (frag.go).

// eventKind says which observer call an event copies.
type eventKind uint8

const (
	evSubmitted eventKind = iota
	evStarted
	evEnded
	evRequeued
	evRejected
	evNodeChanged
	evPowerChanged
	evStepped
	evLeftQueued  // a job still queued at Finished
	evLeftRunning // a job still running at Finished
	evFinished
)

// event is one observer call, copied.
type event struct {
	kind      eventKind
	status    sim.JobStatus // the job's status, or the node's power state
	measured  bool          // Options.Measured's answer for the job
	flag      bool          // node down (NodeChanged), preemption (Requeued)
	node      int32         // NodeChanged, PowerChanged
	from, to  uint32        // the job's nodes: batch.nodes[from:to]
	step      uint32        // a step's (or Finished's) copy: batch.steps[step]
	now       sim.Time
	run       *sim.JobRun // identity only
	job       *sim.Job
	needs     []sim.Need
	reason    string
	start     sim.Time
	end       sim.Time
	first     sim.Time // FirstStart
	submitted sim.Time // TraceSubmit
	lostWork  sim.Time // the job's LostWork
	overhead  sim.Time
	lost      sim.Time // Requeued: the work this stop lost
	restarts  int64
}

// stepCopy is what a step reads of the sim.Context.
type stepCopy struct {
	queued, running int64
	powerW          float64
	events          int64 // EventsApplied, at Finished
	// batch.amounts[amounts:] holds the R allocations, then the R free
	// amounts of each of batch.touched[touched:touchedTo].
	amounts            uint32
	touched, touchedTo uint32
	shapes, shapesTo   uint32 // batch.shapes: the new jobs' task shapes
	submittedSinceStep int    // jobs submitted since the last step, rejected ones too
}

// touchedNode is a node's free amounts and state at a step: one that
// changed since the last step, or any node at the first step, which
// copies them all (fragTracker.image starts from it).
type touchedNode struct {
	n       int32
	online  bool
	changed bool // since the last step: fragmentation measures it again
}

// stepView is a step's copy with its arrays resolved.
type stepView struct {
	*stepCopy
	alloc   []sim.Amount
	touched []touchedNode
	free    []sim.Amount // R per touched node
	shapes  []jobShape
}

// step resolves step i of the batch for R resources.
func (b *eventBatch) step(i uint32, R int) stepView {
	s := &b.steps[i]
	a := int(s.amounts)
	return stepView{stepCopy: s, alloc: b.amounts[a : a+R], touched: b.touched[s.touched:s.touchedTo],
		free: b.amounts[a+R : a+R+int(s.touchedTo-s.touched)*R], shapes: b.shapes[s.shapes:s.shapesTo]}
}

// jobShape is a task shape seen at a step (fragTracker.learn).
type jobShape struct {
	needs []sim.Need
	tasks int64
}

// eventBatch is a run of events and the arrays they point into.
type eventBatch struct {
	events  []event
	nodes   []int32
	steps   []stepCopy
	amounts []sim.Amount
	touched []touchedNode
	shapes  []jobShape
}

func (b *eventBatch) reset() {
	clear(b.events) // drop the pointers, for the garbage collector
	clear(b.shapes)
	b.events, b.nodes, b.steps, b.amounts, b.touched, b.shapes = b.events[:0], b.nodes[:0], b.steps[:0], b.amounts[:0], b.touched[:0], b.shapes[:0]
}

// batchEvents is the events a batch holds before it is handed over: the
// hand-over costs a few microseconds, and a batch of a few hundred KB
// stays in cache.
const batchEvents = 2048

// batchBytes is the size of the copied node lists and amounts at which a
// batch is handed over before it is full: in the nodes model a job of
// thousands of nodes copies them at its start, its end and the steps that
// follow, and four batches of 2,048 such events held some 25 MB on
// CEA-Curie (and the collector's goal twice that).
const batchBytes = 256 << 10

// bytes is the size of the batch's node lists and amounts.
func (b *eventBatch) bytes() int {
	return len(b.nodes)*4 + len(b.amounts)*8 + len(b.touched)*int(unsafe.Sizeof(touchedNode{}))
}

// feedBatches is the batches in circulation: the engine fills one while
// the recorder works through the others.
const feedBatches = 4

// feed is the engine's side of the recorder.
type feed struct {
	cur     *eventBatch
	size    int              // events per batch
	todo    chan *eventBatch // to the recorder goroutine; closed by stopWorker
	free    chan *eventBatch // emptied batches back
	done    chan struct{}    // closed when the recorder goroutine returns
	inline  bool             // apply batches on the engine's goroutine (tests)
	stopped bool             // todo is closed
	pending []*sim.JobRun    // submitted since the last step
	stamp   []uint32         // stamp[n] == step+1: n is in touched
	step    uint32           // steps seen
	touched []int32          // nodes touched since the last step
	R       int
}

func (f *feed) init(nodes, R int) {
	f.size, f.R = batchEvents, R
	f.stamp = make([]uint32, nodes)
	f.todo = make(chan *eventBatch, feedBatches)
	f.free = make(chan *eventBatch, feedBatches)
	f.done = make(chan struct{})
	f.cur = idleEventBatches.get()
	f.cur.events = slices.Grow(f.cur.events, batchEvents)
	for range feedBatches - 1 {
		b := idleEventBatches.get()
		b.events = slices.Grow(b.events, batchEvents)
		f.free <- b
	}
}

// release hands the batches to the next recorder (reuse.go), once the
// recorder goroutine has stopped.
func (f *feed) release() {
	keep := func(b *eventBatch) {
		b.reset()
		size := cap(b.events)*int(unsafe.Sizeof(event{})) + cap(b.nodes)*4 + cap(b.steps)*int(unsafe.Sizeof(stepCopy{})) +
			cap(b.amounts)*8 + cap(b.touched)*int(unsafe.Sizeof(touchedNode{})) + cap(b.shapes)*int(unsafe.Sizeof(jobShape{}))
		if size <= maxKeptBatchBytes {
			idleEventBatches.put(b)
		}
	}
	keep(f.cur)
	f.cur = nil
	for range feedBatches - 1 {
		keep(<-f.free)
	}
}

// startWorker starts the recorder goroutine.
func (r *Recorder) startWorker() {
	go r.work()
}

// work applies the batches in order. After a panic it keeps emptying the
// batches it is sent, so the engine never blocks, and the engine's
// goroutine panics again at its next hand-over (rethrow).
func (r *Recorder) work() {
	sim.LabelGoroutine("record")
	defer close(r.feed.done)
	for b := range r.feed.todo {
		if r.crashed.Load() == nil && !r.aborting.Load() {
			r.applySafely(b)
		}
		b.reset()
		r.feed.free <- b
	}
}

// recorderPanic is a panic of the recorder goroutine, with its stack,
// raised again on the engine's goroutine.
type recorderPanic struct {
	value any
	stack []byte
}

func (p *recorderPanic) String() string {
	return fmt.Sprintf("metrics recorder: %v\n\nrecorder goroutine stack:\n%s", p.value, p.stack)
}

func (r *Recorder) applySafely(b *eventBatch) {
	defer func() {
		if v := recover(); v != nil {
			r.crashed.Store(&recorderPanic{value: v, stack: debug.Stack()})
			r.fail(fmt.Errorf("recorder goroutine panicked: %v", v))
		}
	}()
	r.apply(b)
}

// rethrow panics on the caller's goroutine with the recorder goroutine's
// panic, if it had one not raised yet.
func (r *Recorder) rethrow() {
	if p := r.crashed.Load(); p != nil && !r.raised {
		r.raised = true
		panic(p.String())
	}
}

// push appends ev and hands the batch over when it is full.
func (r *Recorder) push(ev event) {
	f := &r.feed
	f.cur.events = append(f.cur.events, ev)
	if len(f.cur.events) >= f.size || f.cur.bytes() >= batchBytes {
		r.handOver()
	}
}

// handOver sends the current batch to the recorder and takes an empty one.
func (r *Recorder) handOver() {
	f := &r.feed
	if len(f.cur.events) == 0 || f.stopped {
		return
	}
	if f.inline {
		r.applySafely(f.cur)
		f.cur.reset()
	} else {
		f.todo <- f.cur
		f.cur = <-f.free
	}
	r.rethrow()
}

// stopWorker hands the last events over and waits until the recorder
// goroutine has applied them and returned; without drain it drops
// whatever is not applied yet. It is idempotent.
func (r *Recorder) stopWorker(drain bool) {
	f := &r.feed
	if f.stopped {
		return
	}
	if f.todo == nil {
		// The recorder failed before its worker started (a table file
		// could not be created): there is nothing to stop.
		f.stopped = true
		return
	}
	if drain {
		r.handOver()
	} else {
		r.aborting.Store(true)
	}
	f.stopped = true
	close(f.todo)
	<-f.done
}

// jobEvent copies what the recorder reads of j at an event.
func (r *Recorder) jobEvent(kind eventKind, now sim.Time, j *sim.JobRun, withNodes bool) event {
	ev := event{
		kind: kind, now: now, run: j, job: j.Job, needs: j.Needs(), status: j.Status, reason: j.Reason,
		start: j.Start, end: j.End, first: j.FirstStart, submitted: j.TraceSubmit, lostWork: j.LostWork,
		overhead: j.Overhead, restarts: int64(j.Restarts),
		measured: r.opt.Measured == nil || r.opt.Measured(j),
	}
	if withNodes {
		b := r.feed.cur
		ev.from = uint32(len(b.nodes))
		b.nodes = append(b.nodes, j.Nodes...)
		ev.to = uint32(len(b.nodes))
	}
	return ev
}

// touch notes that node n's free amounts or state changed.
func (f *feed) touch(n int32) {
	if f.stamp[n] != f.step+1 {
		f.stamp[n] = f.step + 1
		f.touched = append(f.touched, n)
	}
}

func (f *feed) touchAll(nodes []int32) {
	for _, n := range nodes {
		f.touch(n)
	}
}

// Submitted implements sim.Observer.
func (r *Recorder) Submitted(now sim.Time, j *sim.JobRun) {
	r.feed.pending = append(r.feed.pending, j)
	r.push(r.jobEvent(evSubmitted, now, j, false))
}

// Started implements sim.Observer.
func (r *Recorder) Started(now sim.Time, j *sim.JobRun) {
	r.feed.touchAll(j.Nodes)
	r.push(r.jobEvent(evStarted, now, j, true))
}

// Ended implements sim.Observer.
func (r *Recorder) Ended(now sim.Time, j *sim.JobRun) {
	r.feed.touchAll(j.Nodes)
	r.push(r.jobEvent(evEnded, now, j, true))
}

// Requeued implements sim.NodeObserver.
func (r *Recorder) Requeued(now sim.Time, j *sim.JobRun, lost sim.Time) {
	r.feed.touchAll(j.Nodes)
	ev := r.jobEvent(evRequeued, now, j, true)
	ev.lost, ev.flag = lost, j.Requeued == "preemption"
	r.push(ev)
}

// Rejected implements sim.Observer.
func (r *Recorder) Rejected(now sim.Time, j *sim.JobRun) {
	r.push(r.jobEvent(evRejected, now, j, false))
}

// NodeChanged implements sim.NodeObserver.
func (r *Recorder) NodeChanged(now sim.Time, n int, down, drained bool) {
	r.feed.touch(int32(n))
	r.push(event{kind: evNodeChanged, now: now, node: int32(n), flag: down})
}

// PowerChanged implements sim.PowerObserver.
func (r *Recorder) PowerChanged(now sim.Time, n int, s sim.PowerState) {
	r.push(event{kind: evPowerChanged, now: now, node: int32(n), status: sim.JobStatus(s)})
}

// Stepped implements sim.Observer: it copies the counts, the draw, the
// allocations, the new jobs' shapes and the changed nodes' free amounts.
func (r *Recorder) Stepped(now sim.Time, c *sim.Context) {
	r.push(event{kind: evStepped, now: now, step: r.copyStep(c)})
}

func (r *Recorder) copyStep(c *sim.Context) uint32 {
	f, b := &r.feed, r.feed.cur
	s := stepCopy{
		queued: int64(len(c.Queue())), running: int64(len(c.Running())), powerW: c.PowerW(),
		amounts: uint32(len(b.amounts)), touched: uint32(len(b.touched)), shapes: uint32(len(b.shapes)),
		submittedSinceStep: len(f.pending),
	}
	for i := range f.R {
		b.amounts = append(b.amounts, c.Allocated(i))
	}
	free := c.FreeVector()
	if f.step == 0 {
		for n := range len(f.stamp) {
			b.touched = append(b.touched, touchedNode{n: int32(n), online: c.NodeOnline(n), changed: f.stamp[n] == 1})
		}
		b.amounts = append(b.amounts, free...)
	} else {
		for _, n := range f.touched {
			b.touched = append(b.touched, touchedNode{n: n, online: c.NodeOnline(int(n)), changed: true})
			b.amounts = append(b.amounts, free[int(n)*f.R:int(n+1)*f.R]...)
		}
	}
	// A shape is known once the engine has compiled the request, after
	// Submitted; a job rejected since has none that counts.
	for _, j := range f.pending {
		if needs := j.Needs(); j.Status != sim.Rejected && needs != nil {
			b.shapes = append(b.shapes, jobShape{needs: needs, tasks: int64(max(j.Job.Tasks, 1))})
		}
	}
	s.touchedTo, s.shapesTo = uint32(len(b.touched)), uint32(len(b.shapes))
	clear(f.pending)
	f.pending, f.touched = f.pending[:0], f.touched[:0]
	f.step++
	b.steps = append(b.steps, s)
	return uint32(len(b.steps) - 1)
}

// Finished implements sim.Observer: the jobs still queued or running are
// copied, then the recorder goroutine applies every event and stops.
func (r *Recorder) Finished(now sim.Time, c *sim.Context) {
	for _, j := range c.Queue() {
		if j.Status == sim.Queued {
			r.push(r.jobEvent(evLeftQueued, now, j, false))
		}
	}
	for _, j := range c.Running() {
		r.push(r.jobEvent(evLeftRunning, now, j, true))
	}
	b := r.feed.cur
	b.steps = append(b.steps, stepCopy{events: c.EventsApplied()})
	r.push(event{kind: evFinished, now: now, step: uint32(len(b.steps) - 1)})
	r.stopWorker(true)
	r.rethrow()
}
