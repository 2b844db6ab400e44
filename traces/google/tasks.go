package google

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// This file follows each task through its life (the schema's state
// machine: unsubmitted → pending → running → dead, and again after a
// resubmission) and cuts it into attempts: one attempt per SUBMIT, ended
// by EVICT, FAIL, FINISH, KILL or LOST (or by its job's end). It keeps
// only the jobs alive (their tasks' attempt counts, for ids) and the
// attempts open: memory follows what is alive, not the trace.

// attempt is one submission of a task.
type attempt struct {
	job   int64
	index int32
	n     int32 // 1 for the task's first submission, 2 for the next…
	// Fixed at submit: who, constraints, anti-affinity, alloc set.
	user        string
	cons        []sim.Constraint
	diffMachine bool
	alloc       int64
	submit      sim.Time
	outcome
}

// outcome is how an attempt ran: what the first pass indexes for attempts
// that take longer than the look-ahead.
type outcome struct {
	schedule, end sim.Time
	kind          eventKind // the ending event; evTraceEnd when open at the trace's end
	ran, ended    bool
	class         int8 // -1: unknown
	priority      int32
	// The request as the task started (UPDATE_PENDING applied; later
	// UPDATE_RUNNING changes are not).
	cpu, mem, disk float64
}

// attemptKey names an attempt: its task, number and submit time. The
// number alone can repeat: a task event after its job's end (a broken
// record) starts the forgotten task again from attempt 1, at a later time.
type attemptKey struct {
	job    int64
	index  int32
	n      int32
	submit sim.Time
}

func (a *attempt) key() attemptKey { return attemptKey{a.job, a.index, a.n, a.submit} }

// taskState is a task's last known values, carried from one attempt to
// the next (a record may leave a field empty).
type taskState struct {
	attempts       int32
	cur            *attempt // the open attempt, nil when dead
	cpu, mem, disk float64
	priority       int32
	class          int8
	diffMachine    bool
	user           string
	cons           []sim.Constraint
	consAt         sim.Time
	alloc          int64
}

// jobState is an alive job (2019: collection) and its tasks.
type jobState struct {
	tasks       map[int32]*taskState
	user        string
	diffMachine bool // 2019: max_per_machine = 1
}

// jobEnd is a job's end, applied once its instant is over.
type jobEnd struct {
	job  int64
	kind eventKind
	at   sim.Time
}

type tracker struct {
	jobs      map[int64]*jobState
	onSubmit  func(*attempt)
	onEnd     func(*attempt)
	ends      []jobEnd // job ends of the current instant
	last      sim.Time // the latest task event time in the window
	allocRows int64    // 2019 alloc-set rows, not tracked
}

func newTracker() *tracker { return &tracker{jobs: map[int64]*jobState{}} }

func (t *tracker) job(id int64) *jobState {
	j := t.jobs[id]
	if j == nil {
		j = &jobState{tasks: map[int32]*taskState{}}
		t.jobs[id] = j
	}
	return j
}

func (t *tracker) task(j *jobState, index int32) *taskState {
	s := j.tasks[index]
	if s == nil {
		s = &taskState{class: -1}
		j.tasks[index] = s
	}
	return s
}

// apply applies one row of the merged stream (rows in time order).
func (t *tracker) apply(r *row) {
	t.advanceTo(r.time)
	if r.time == sim.Forever {
		return // after the window: as if it had not happened
	}
	if r.allocSet {
		t.allocRows++
		return // an alloc set reserves room for tasks that are replayed themselves
	}
	switch r.table {
	case tabJob:
		j := t.job(r.job)
		if r.user != "" {
			j.user = r.user
		}
		if r.has&hasMaxPerMachine != 0 {
			j.diffMachine = r.diffMachine
		}
		if r.kind >= evFail && r.kind <= evLost {
			t.ends = append(t.ends, jobEnd{r.job, r.kind, r.time})
		}
	case tabConstraint:
		s := t.task(t.job(r.job), r.index)
		if s.consAt != r.time || s.cons == nil {
			s.cons, s.consAt = nil, r.time
		}
		s.cons = append(s.cons, r.cons...)
		if s.cur != nil && s.cur.submit == r.time {
			s.cur.cons = s.cons
		}
	case tabTask:
		t.last = max(t.last, r.time)
		j := t.job(r.job)
		t.taskEvent(j, t.task(j, r.index), r)
	}
}

func (t *tracker) taskEvent(j *jobState, s *taskState, r *row) {
	s.carry(r)
	a := s.cur
	switch {
	case r.kind == evSubmit:
		if a != nil && !a.ran {
			a.refresh(s) // submitted again while pending: an update
			return
		}
		if a != nil {
			t.end(s, r.time, evLost) // resubmitted while running: that run is lost
		}
		t.open(j, s, r)
	case r.kind == evSchedule:
		if a == nil {
			a = t.open(j, s, r) // no SUBMIT seen (missing data): submitted now
		}
		if !a.ran {
			a.refresh(s)
			a.ran, a.schedule = true, r.time
		}
	case r.kind.ends():
		if a != nil {
			t.end(s, r.time, r.kind)
		}
	case r.kind == evUpdatePending:
		if a != nil && !a.ran {
			a.refresh(s)
		}
	}
}

// carry keeps the row's values as the task's last known ones.
func (s *taskState) carry(r *row) {
	if r.has&hasCPU != 0 {
		s.cpu = r.cpu
	}
	if r.has&hasMem != 0 {
		s.mem = r.mem
	}
	if r.has&hasDisk != 0 {
		s.disk = r.disk
	}
	if r.has&hasPriority != 0 {
		s.priority = r.priority
	}
	if r.has&hasClass != 0 {
		s.class = r.class
	}
	if r.has&hasDiffMachine != 0 {
		s.diffMachine = r.diffMachine
	}
	if r.user != "" {
		s.user = r.user
	}
	if r.has&hasConstraints != 0 && r.kind == evSubmit {
		s.cons, s.consAt = r.cons, r.time
	}
	if r.alloc != 0 {
		s.alloc = r.alloc
	}
}

// refresh takes the task's current request and class into a pending
// attempt.
func (a *attempt) refresh(s *taskState) {
	a.cpu, a.mem, a.disk, a.priority, a.class = s.cpu, s.mem, s.disk, s.priority, s.class
}

// open starts an attempt at r.time.
func (t *tracker) open(j *jobState, s *taskState, r *row) *attempt {
	s.attempts++
	user := s.user
	if user == "" {
		user = j.user
	}
	a := &attempt{job: r.job, index: r.index, n: s.attempts, user: user, diffMachine: s.diffMachine || j.diffMachine,
		alloc: s.alloc, submit: r.time}
	if s.consAt <= r.time {
		a.cons = s.cons
	}
	a.refresh(s)
	s.cur = a
	if t.onSubmit != nil {
		t.onSubmit(a)
	}
	return a
}

func (t *tracker) end(s *taskState, at sim.Time, kind eventKind) {
	a := s.cur
	s.cur = nil
	a.end, a.kind, a.ended = at, kind, true
	if t.onEnd != nil {
		t.onEnd(a)
	}
}

// advanceTo applies the pending job ends once time passes their instant.
func (t *tracker) advanceTo(now sim.Time) {
	if len(t.ends) > 0 && now > t.ends[0].at {
		t.flush()
	}
}

// flush applies the job ends of the instant just over: the job's open
// attempts end with it, and its tasks are forgotten.
func (t *tracker) flush() {
	for _, e := range t.ends {
		j := t.jobs[e.job]
		if j == nil {
			continue
		}
		for _, i := range sortedTasks(j) {
			if s := j.tasks[i]; s.cur != nil {
				t.end(s, e.at, e.kind)
			}
		}
		delete(t.jobs, e.job)
	}
	t.ends = t.ends[:0]
}

// open returns the attempts still open, in (job, task) order.
func (t *tracker) openAttempts() []*attempt {
	ids := make([]int64, 0, len(t.jobs))
	for id := range t.jobs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var out []*attempt
	for _, id := range ids {
		j := t.jobs[id]
		for _, i := range sortedTasks(j) {
			if a := j.tasks[i].cur; a != nil {
				out = append(out, a)
			}
		}
	}
	return out
}

func sortedTasks(j *jobState) []int32 {
	idx := make([]int32, 0, len(j.tasks))
	for i := range j.tasks {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	return idx
}
