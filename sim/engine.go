package sim

import (
	"errors"
	"fmt"
	"io"
)

// Scheduler decides which queued jobs start and where. The engine calls
// Schedule once per event time, after every event of that time is applied.
type Scheduler interface {
	Schedule(c *Context) error
}

// Config holds the engine's own settings.
type Config struct {
	// KillAtWalltime ends a job at its walltime when its runtime is longer.
	KillAtWalltime bool
	// Until is the horizon: events after it are not applied. Zero means
	// run until the trace and the queue are exhausted.
	Until Time
	// Less orders the queue (policies.Order); nil means FCFS (arrival order).
	Less func(a, b *JobRun) bool
	// Interrupt, when closed, stops the run between two instants with
	// ErrInterrupted (Ctrl-C). It is polled, so it costs nothing per event.
	Interrupt <-chan struct{}
	// NodeEvents are scheduled node failures, recoveries and drains;
	// Failures, when not nil, adds random ones (nodestate.go).
	NodeEvents []NodeEvent
	Failures   *FailureModel
	// MaxRestarts > 0 caps how often node events may stop a job and queue
	// it again: the next stop kills it (reason "node failure after N
	// restarts", or "node drain …"), as a resource manager gives up on a job after
	// so many requeues (Slurm's MaxBatchRequeue). Without a cap, a job that
	// cannot outrun the failure rate restarts for ever and the run never
	// ends. Preemptions do not count. 0: no cap.
	MaxRestarts int
	// PowerDown, when not nil, switches idle nodes off (powerdown.go).
	PowerDown *PowerDown
	// Cycle restricts the scheduling passes to a scheduling cycle
	// (cycle.go); its zero value runs a pass at every event time.
	Cycle Cycle
	// Limits caps the running jobs and processors per user and per queue
	// (limits.go).
	Limits Limits
	// Calendar, when set, admits jobs to the scheduler by the time of day
	// and week (calendar.go).
	Calendar Calendar
	// NoDependencies says the trace has no dependencies (its reader knows
	// no job can have DependsOn): the engine then keeps no record of job
	// ids and their outcomes (deps.go), which costs memory and time on
	// every job of a long trace. A job with dependencies is then an error.
	NoDependencies bool
}

// ErrInterrupted is returned by Run when Config.Interrupt was closed.
var ErrInterrupted = errors.New("interrupted")

// Engine runs one simulation.
type Engine struct {
	cluster   *Cluster
	cfg       Config
	src       Source
	sched     Scheduler
	observers []Observer

	now       Time
	events    eventHeap
	evSeq     uint64
	free      []Amount // free[n*R+r]
	queue     []*JobRun
	running   []*JobRun
	arrived   int64 // jobs read from the trace (the next one included)
	submitted int64
	// allocated[r] is the amount of resource r in use over all nodes.
	allocated []Amount
	// avail[r] is a bitset of the nodes with some of resource r free, so
	// policies can skip full nodes on large clusters.
	avail    [][]uint64
	fitCache map[string]int
	keyBuf   []byte // neverFits' key, reused
	shapes   shapeCache
	power    *powerModel
	ctx      Context
	events64 int64 // events applied
	lastTime Time
	done     bool
	ended    []*JobRun // jobs that ended since the last scheduling pass
	wakes    map[Time]bool
	// startedInPass says the queue holds started jobs to compact away.
	startedInPass bool
	// sawSubmit and sawEnd say a job arrived or ended at this instant,
	// for a scheduling cycle's passes on submit and end.
	sawSubmit, sawEnd bool
	// limits counts what runs by user and queue and holds back what the
	// calendar does not admit; nil without Limits and Calendar.
	limits *limitState
	// calSwept is the end of the last window in which a pass looked for
	// held jobs no window will admit (rejectStranded).
	calSwept Time
	inPass   bool // the scheduler is running: Context.Queue is limits.shown
	// rejectedInPass says the scheduler rejected a job in the pass.
	rejectedInPass bool
	nodes          nodeState
	preempted      []*JobRun // stopped by the scheduler this pass, queued after it
	jobEvents      int       // submit, release and live finish events in the heap (a stopped run's does not count)
	deps           depState
	pd             *powerDownState // nil without power-down
	// split holds the per-task jobs of a job with independent tasks not
	// yet submitted (split.go).
	split []*Job
	// traceDone says the trace has no job left to read; releases counts
	// the release events of held-back jobs in the heap.
	traceDone bool
	releases  int
}

// NewEngine wires a cluster, a trace, a scheduler and observers.
func NewEngine(c *Cluster, src Source, s Scheduler, cfg Config, obs ...Observer) *Engine {
	e := &Engine{
		cluster:   c,
		cfg:       cfg,
		src:       src,
		sched:     s,
		observers: obs,
		free:      append([]Amount(nil), c.capacity...),
		allocated: make([]Amount, len(c.Resources)),
		fitCache:  map[string]int{},
		wakes:     map[Time]bool{},
		power:     newPowerModel(c),
	}
	e.avail = make([][]uint64, len(c.Resources))
	for r := range e.avail {
		e.avail[r] = make([]uint64, (len(c.Nodes)+63)/64)
	}
	for n := range c.Nodes {
		e.updateAvail(int32(n), nil)
	}
	if cfg.Limits.Enabled() || cfg.Calendar != nil {
		e.limits = newLimitState(c, cfg.Calendar)
	}
	e.ctx.e = e
	return e
}

// removeRunning takes j out of the running list.
func (e *Engine) removeRunning(j *JobRun) {
	if e.limits != nil {
		e.limits.add(j, -1)
	}
	last := len(e.running) - 1
	moved := e.running[last]
	e.running[j.runIndex] = moved
	moved.runIndex = j.runIndex
	e.running[last] = nil
	e.running = e.running[:last]
}

// updateAvail refreshes node n's bits for the resources in req (all when
// req is nil). An offline node has none.
func (e *Engine) updateAvail(n int32, req []Need) {
	R := len(e.cluster.Resources)
	on := e.online(int(n))
	set := func(r int) {
		word, bit := &e.avail[r][n/64], uint64(1)<<(n%64)
		if on && e.free[int(n)*R+r] > 0 {
			*word |= bit
		} else {
			*word &^= bit
		}
	}
	if req == nil {
		for r := 0; r < R; r++ {
			set(r)
		}
		return
	}
	for _, q := range req {
		set(int(q.Res))
	}
}

// EventsApplied counts events applied so far.
func (e *Engine) EventsApplied() int64 { return e.events64 }

// Now is the engine's clock: after Run, the time of the run's last event.
func (e *Engine) Now() Time { return e.now }

// Run plays the simulation to the end of the trace (or the horizon). It
// returns the first error from the trace or the scheduler, or
// ErrInterrupted.
func (e *Engine) Run() error {
	if e.done {
		return errors.New("engine already ran")
	}
	e.done = true
	if err := e.scheduleNodeEvents(); err != nil {
		return err
	}
	if err := e.pull(); err != nil {
		return err
	}
	if pd := e.cfg.PowerDown; pd != nil && pd.After < 0 {
		return fmt.Errorf("power-down: idle time before switching off must be ≥ 0, got %s s", pd.After)
	}
	e.initPowerDown()
	for steps := 0; e.events.len() > 0 && !e.onlyNodeEvents(); steps++ {
		if e.cfg.Interrupt != nil && steps%1024 == 0 {
			select {
			case <-e.cfg.Interrupt:
				return ErrInterrupted
			default:
			}
		}
		t := e.events.nextAt()
		if e.cfg.Until > 0 && t > e.cfg.Until {
			break
		}
		e.now = t
		for e.events.len() > 0 && e.events.nextAt() == t {
			ev := e.events.pop()
			e.events64++
			if err := e.apply(ev); err != nil {
				return err
			}
		}
		if !e.cfg.Cycle.passDue(t, e.sawSubmit, e.sawEnd) {
			// Between two passes of the cycle: what happened waits for
			// the next one (Ended and NodeChanges keep it).
			e.sawSubmit, e.sawEnd = false, false
			e.wakeAt(e.cfg.Cycle.nextTick(t))
			for _, o := range e.observers {
				o.Stepped(e.now, &e.ctx)
			}
			continue
		}
		e.sawSubmit, e.sawEnd = false, false
		if err := e.pass(); err != nil {
			return err
		}
		for _, j := range e.preempted { // queued again after the pass, not under it
			e.enqueue(j)
		}
		e.preempted = e.preempted[:0]
		e.ended = e.ended[:0]
		e.nodes.changed = e.nodes.changed[:0]
		for _, o := range e.observers {
			o.Stepped(e.now, &e.ctx)
		}
	}
	if e.cfg.Until > 0 && e.now < e.cfg.Until && e.events.len() > 0 {
		e.now = e.cfg.Until
	}
	e.flushHeld()
	e.explainWaiting()
	for _, o := range e.observers {
		o.Finished(e.now, &e.ctx)
	}
	return nil
}

// pass runs the scheduler. The scheduler runs even on an empty queue so
// that stateful policies see every job end (Context.Ended). With caps, a
// job the scheduler rejected may leave room under its user's or queue's
// cap for a job the pass hid: the pass then runs again at once on the
// rebuilt queue, with nothing new ended, for as long as it reveals a job.
func (e *Engine) pass() error {
	for {
		if e.limits != nil {
			e.limits.passQueue(e.cfg.Limits, e.queue, e.now)
			e.inPass = true
			if e.limits.calHeld {
				if e.now >= e.calSwept {
					e.rejectStranded()
					e.calSwept = e.limits.window.End
				}
				e.wakeAt(e.limits.window.End)
			}
		}
		e.rejectedInPass = false
		if err := e.sched.Schedule(&e.ctx); err != nil {
			e.inPass = false
			return fmt.Errorf("scheduler at t=%s s: %w", e.now, err)
		}
		e.inPass = false
		if e.startedInPass {
			e.compactQueue()
			e.startedInPass = false
		}
		if e.limits == nil || !e.rejectedInPass || !e.limits.wouldReveal(e.cfg.Limits, e.queue) {
			return nil
		}
		e.ended = e.ended[:0]
		e.nodes.changed = e.nodes.changed[:0]
	}
}

// pull reads the next trace job and schedules its arrival.
func (e *Engine) pull() error {
	var j *Job
	if len(e.split) > 0 {
		j, e.split = e.split[0], e.split[1:]
	} else {
		var err error
		j, err = e.src.Next()
		if err == io.EOF {
			e.traceDone = true
			return nil
		}
		if err != nil {
			return err
		}
		if j.IndependentTasks && j.Tasks > 1 {
			e.split = splitTasks(j)
			j, e.split = e.split[0], e.split[1:]
		}
	}
	if j.Submit < e.lastTime {
		return fmt.Errorf("job %s: submit time %s s is before the previous job's %s s: the trace must be in submit order", j.ID, j.Submit, e.lastTime)
	}
	e.lastTime = j.Submit
	jr := &JobRun{Job: j, Seq: e.arrived, TraceSubmit: j.Submit}
	e.arrived++
	e.push(j.Submit, evSubmit, jr)
	return nil
}

// wakeAt makes sure a scheduling pass happens at t (> now).
func (e *Engine) wakeAt(t Time) {
	if t <= e.now || t == Forever || e.wakes[t] {
		return
	}
	e.wakes[t] = true
	e.push(t, evWake, nil)
}

func (e *Engine) push(at Time, k eventKind, j *JobRun) {
	ev := event{at: at, kind: k, seq: e.evSeq, job: j}
	if k == evSubmit || k == evFinish || k == evRelease {
		e.jobEvents++
		if k == evFinish {
			ev.attempt = j.attempt
		}
	}
	e.events.push(ev)
	e.evSeq++
}

func (e *Engine) apply(ev event) error {
	switch ev.kind {
	case evSubmit:
		e.jobEvents--
		e.sawSubmit = true
		if e.cfg.NoDependencies && len(ev.job.Job.DependsOn) > 0 {
			return fmt.Errorf("job %s: has dependencies, but the trace was declared to have none", ev.job.Job.ID)
		}
		if err := e.cluster.checkNegative(ev.job.Job); err != nil {
			return err
		}
		e.submit(ev.job)
		return e.pull()
	case evFinish:
		if ev.attempt == ev.job.attempt { // else the run was stopped, and the event stopped counting then
			e.jobEvents--
			e.sawEnd = true
			e.finish(ev.job)
		}
	case evRelease:
		e.jobEvents--
		e.sawSubmit = true
		e.releases--
		e.released(ev.job)
	case evNode:
		e.applyNode(ev)
	case evDeadline:
		e.applyDeadline(ev)
	case evPower:
		e.applyPower(ev)
	case evWake:
		delete(e.wakes, ev.at)
	}
	return nil
}

func (e *Engine) submit(j *JobRun) {
	e.submitted++
	for _, o := range e.observers {
		o.Submitted(e.now, j)
	}
	why := e.neverFits(j)
	if why == "" && e.cfg.Calendar != nil && !e.cfg.Calendar.EverAdmits(e.now, j.EstimatedRuntime()) {
		why = calendarReason(j.EstimatedRuntime())
	}
	reason, hold := e.arrive(j, why)
	if reason != "" {
		j.Status = Rejected
		j.Reason = reason
		for _, o := range e.observers {
			o.Rejected(e.now, j)
		}
		e.depEnded(j)
		return
	}
	if !hold {
		e.enqueue(j)
	}
}

// neverFits compiles j's request and returns why j can never run, or "":
// no node can hold its tasks in the most permissive state the cluster can
// reach (the empty cluster, with its shortcomings cancelled:
// shortcoming.go).
func (e *Engine) neverFits(j *JobRun) string {
	if j.Job.Tasks < 1 {
		return "job has no tasks"
	}
	most := 0
	if c, ok := e.shapes.get(j.Job); ok {
		j.req, most = c.req, c.most
	} else {
		req, immune, err := e.cluster.compile(j.Job)
		if err != nil {
			return err.Error()
		}
		j.req, j.immune = req, immune
		most = e.mostTasks(req, immune)
		e.shapes.put(j.Job, req, most)
	}
	if most < j.Job.Tasks {
		if most == 0 {
			return "no node can hold one task"
		}
		if e.cluster.shortcomings {
			return fmt.Sprintf("needs %d tasks but the cluster holds only %d, even with its shortcomings cancelled", j.Job.Tasks, most)
		}
		return fmt.Sprintf("needs %d tasks but the empty cluster holds only %d", j.Job.Tasks, most)
	}
	return ""
}

// mostTasks is how many tasks of a compiled request the most permissive
// cluster holds, at most 2^30; remembered by request.
func (e *Engine) mostTasks(req []Need, immune []int32) int {
	e.keyBuf = AppendRequestKey(e.keyBuf[:0], req, immune)
	most, ok := e.fitCache[string(e.keyBuf)] // no allocation for the lookup
	if !ok {
		for n := range e.cluster.Nodes {
			most += e.cluster.TasksFitting(e.cluster.permissive, n, req, immune, 1<<30)
			if most >= 1<<30 {
				most = 1 << 30
				break
			}
		}
		e.fitCache[string(e.keyBuf)] = most
	}
	return most
}

// AppendRequestKey appends to b a byte string that names a compiled
// request and its immunities (none: nil), for maps keyed by task shape.
func AppendRequestKey(b []byte, req []Need, immune []int32) []byte {
	for _, r := range immune {
		b = append(b, byte(r), byte(r>>8), byte(r>>16), 0xff)
	}
	for _, q := range req {
		b = append(b, byte(q.Res), byte(q.Res>>8), byte(q.Res>>16), byte(q.Res>>24))
		a := uint64(q.Amt)
		for i := 0; i < 8; i++ {
			b = append(b, byte(a>>(8*i)))
		}
	}
	return b
}

// enqueue inserts j keeping the queue in the configured order.
func (e *Engine) enqueue(j *JobRun) {
	i := len(e.queue)
	if e.cfg.Less != nil {
		// Binary search for the first job that j goes before.
		lo, hi := 0, len(e.queue)
		for lo < hi {
			m := (lo + hi) / 2
			if e.cfg.Less(j, e.queue[m]) {
				hi = m
			} else {
				lo = m + 1
			}
		}
		i = lo
	}
	e.queue = append(e.queue, nil)
	copy(e.queue[i+1:], e.queue[i:])
	e.queue[i] = j
}

func (e *Engine) compactQueue() {
	k := 0
	for _, j := range e.queue {
		if j.Status == Queued {
			e.queue[k] = j
			k++
		}
	}
	for i := k; i < len(e.queue); i++ {
		e.queue[i] = nil
	}
	e.queue = e.queue[:k]
}

// start places j's tasks on nodes and starts it now. It checks the
// decision: the job must be queued and every task must fit.
func (e *Engine) start(j *JobRun, nodes []int32) error {
	if j.Status != Queued {
		return fmt.Errorf("job %s: cannot start: it is %s", j.Job.ID, j.Status)
	}
	if len(nodes) != j.Job.Tasks {
		return fmt.Errorf("job %s: %d nodes given for %d tasks", j.Job.ID, len(nodes), j.Job.Tasks)
	}
	for i, n := range nodes {
		if n < 0 || int(n) >= len(e.cluster.Nodes) || !e.online(int(n)) || e.cluster.TasksFitting(e.free, int(n), j.req, j.immune, 1) < 1 {
			e.release(j, nodes[:i])
			return fmt.Errorf("job %s: task %d does not fit on node %d", j.Job.ID, i, n)
		}
		e.take(j, n)
	}
	// With power-down the run begins when every node is on.
	ready := e.now
	if e.pd != nil {
		for _, n := range nodes {
			ready = max(ready, e.readyAt(int(n)))
		}
	}
	j.Status = Running
	e.startedInPass = true
	j.Start = ready
	if j.Restarts == 0 {
		j.FirstStart = j.Start
	}
	if cap(j.Nodes) == 0 && len(nodes) == 1 {
		j.Nodes = j.oneNode[:0] // most jobs: no allocation of their own
	}
	j.Nodes = append(j.Nodes[:0], nodes...)
	// A restarted job runs what its checkpoints did not save, within what
	// is left of its walltime, plus the restore of its checkpoint.
	j.restore = 0
	if j.Restarts > 0 && j.Saved > 0 {
		j.restore = j.Job.CheckpointCost
		j.Overhead += j.restore
	}
	j.finishAt = j.Start + j.Remaining() + j.restore
	j.finishing = Completed
	if e.cfg.KillAtWalltime && j.Job.Walltime >= 0 && j.Job.Runtime > j.Job.Walltime {
		j.finishAt = j.Start + j.Job.Walltime - j.Saved + j.restore
		j.finishing = Killed
		j.Reason = "walltime exceeded"
	}
	if j.finishAt < j.Start {
		// A negative runtime, or one that overflows sim.Time: no reader
		// or transform lets one through, a library caller might.
		return fmt.Errorf("job %s would end at %s s, before its start at %s s (runtime %s s)",
			j.Job.ID, j.finishAt, j.Start, j.Job.Runtime)
	}
	j.runIndex = len(e.running)
	e.running = append(e.running, j)
	if e.limits != nil {
		e.limits.add(j, 1)
	}
	e.push(j.finishAt, evFinish, j)
	if ready == e.now {
		e.beginRun(j)
	} else {
		e.pushPower(ready, pwBegin, -1, j.attempt, j)
	}
	for _, o := range e.observers {
		o.Started(e.now, j)
	}
	return nil
}

// reject ends a queued job that the scheduler found can never run (a
// constraint no node meets), with its reason.
func (e *Engine) reject(j *JobRun, reason string) error {
	if j.Status != Queued {
		return fmt.Errorf("job %s: cannot reject: it is %s", j.Job.ID, j.Status)
	}
	j.Status = Rejected
	j.Reason = reason
	e.startedInPass = true // compact it out of the queue after the pass
	e.rejectedInPass = true
	for _, o := range e.observers {
		o.Rejected(e.now, j)
	}
	e.deps.inPass = true
	e.depEnded(j)
	e.deps.inPass = false
	return nil
}

func (e *Engine) take(j *JobRun, n int32) {
	req := j.req
	if e.cluster.special || len(j.immune) > 0 {
		e.cluster.consume(e.free, int(n), req, j.immune, 1, e.allocated)
		e.updateAvailChain(n, req)
	} else {
		base := int(n) * len(e.cluster.Resources)
		for _, q := range req {
			e.free[base+int(q.Res)] -= q.Amt
			e.allocated[q.Res] += q.Amt
		}
		e.updateAvail(n, req)
	}
	if e.pd != nil {
		e.placed(n, 1)
	}
}

func (e *Engine) release(j *JobRun, nodes []int32) {
	req := j.req
	for _, n := range nodes {
		if e.cluster.special || len(j.immune) > 0 {
			e.cluster.consume(e.free, int(n), req, j.immune, -1, e.allocated)
			e.updateAvailChain(n, req)
		} else {
			base := int(n) * len(e.cluster.Resources)
			for _, q := range req {
				e.free[base+int(q.Res)] += q.Amt
				e.allocated[q.Res] -= q.Amt
			}
			e.updateAvail(n, req)
		}
		if j.powered {
			e.power.changed(int(n), req, -1)
		}
		if e.pd != nil {
			e.placed(n, -1)
		}
	}
}

// updateAvailChain refreshes the bits of n and its ancestors.
func (e *Engine) updateAvailChain(n int32, req []Need) {
	for m := int(n); m >= 0; m = e.cluster.parent(m) {
		e.updateAvail(int32(m), req)
	}
}

func (e *Engine) finish(j *JobRun) {
	e.release(j, j.Nodes)
	j.powered = false
	j.Status = j.finishing
	j.End = e.now
	e.removeRunning(j)
	e.ended = append(e.ended, j)
	for _, o := range e.observers {
		o.Ended(e.now, j)
	}
	e.depEnded(j)
}
