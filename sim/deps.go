package sim

import (
	"sort"

	"github.com/schedsim/schedsim/sim/seqmap"
)

// This file is the engine's side of job dependencies (DAGs): SWF's
// preceding job and think time, the native format's depends_on.
//
// Semantics. A job with dependencies arrives at its trace submit time
// (observers hear Submitted then) but enters the queue only once every
// dependency has ended, at its release time
//
//	max(trace submit, max over dependencies of (dependency end + think))
//
// A dependency "after success" is met when the named job completes; "after
// any" (AfterAny) when it completes, is killed or is rejected. A dependency
// that can never be met rejects the job, with the reason, at the moment it
// is known: the named job was killed or rejected ("dependency 123 was
// killed"), or no earlier job has that id ("dependency 99 is not in the
// trace …"). Rejection spreads: a job waiting for a rejected one after
// success is rejected in turn. Nothing is waited on forever.
//
// Dependencies name earlier jobs: an id resolves, when the dependent job
// arrives, to the latest job with that id that arrived before it. A job
// naming a later job (or itself) is rejected as naming a missing one. So
// the dependency graph follows arrival order and has no cycles; a cycle
// written in a trace (a after b, b after a) shows up as its earliest job
// naming a later one, and both are rejected.
//
// Effective submit. A job released after its trace submit runs with a copy
// of its Job whose Submit is the release time (JobRun.TraceSubmit keeps the
// trace's). This is SWF's reading of think time (the time "between the
// termination of the preceding job and the submittal of this one"), and it
// makes every metric count from the job's entry into the queue: wait,
// turnaround and slowdown are not charged the time spent waiting for other
// jobs, and FCFS orders it by release. A job still held back at the horizon
// keeps its trace submit and is reported queued.
//
// Events. A job released at the instant its last dependency ends is
// queued at once, in the same scheduling pass; a later release is an
// evRelease event, ordered before the arrivals of that time (the job was
// submitted earlier). A job the scheduler rejects during a pass releases
// its "after any" waiters by an event at the same instant, so the queue
// never changes under the scheduler: that instant gets a second pass.
//
// Memory. Held-back jobs are alive (they are in memory like queued ones).
// Beyond them, the engine remembers the outcome of every job that ended,
// its end time and whether it completed, by id: a later job may name any
// earlier one, and a streamed trace cannot say which will be named. That
// is O(trace) in ids only, not in jobs (Job and JobRun values are dropped
// as before), and small (measured on a million jobs): 8 bytes a job for
// dense numeric ids (SWF's 1…N), about 40 for sparse numbers, about 70,
// the id's text included, for ids that are not numbers (outcomes). A trace
// whose reader knows it has no dependencies (Config.NoDependencies) needs
// none of this: 10 million ids took 64 to 128 MiB (the slice doubles) and
// some 7 % of the engine's time, mostly cache misses.

// Dependency is one entry of Job.DependsOn: the job waits until job ID (an
// earlier job of the trace) has ended, plus Think.
type Dependency struct {
	ID string
	// AfterAny is met by any end (completed, killed, rejected); false means
	// after success (the job completed).
	AfterAny bool
	// Think is the time between the dependency's end and this job's entry
	// into the queue (SWF field 18), ≥ 0.
	Think Time
}

// outcome packs an end time and how the job ended (end<<2 | code) into 8
// bytes, to keep the per-trace memory small. The zero value is "none".
type outcome int64

const (
	outCompleted = iota + 1
	outKilled
	outRejected
)

func packOutcome(end Time, s JobStatus) outcome {
	code := outRejected
	switch s {
	case Completed:
		code = outCompleted
	case Killed:
		code = outKilled
	}
	return outcome(int64(end)<<2 | int64(code))
}

func (o outcome) end() Time { return Time(o >> 2) }
func (o outcome) code() int { return int(o & 3) }

// outcomes maps the ids of ended jobs to their outcome. Ids that are
// decimal numbers, nearly every trace's, are kept without their text and
// out of the garbage collector's sight: in a slice indexed by the number
// less a base while the numbers are dense (SWF's 1…N, or a log's excerpt
// numbered from 272393: 8 bytes a job), else in a map of integers. Other
// ids go in a map of strings.
type outcomes struct {
	dense  []outcome
	base   uint64 // dense[i] is id base+i; set by the first numeric id
	based  bool
	nDense int // ids held in dense: it stays at most denseSpread·nDense + denseSlack long
	num    map[uint64]outcome
	str    map[string]outcome
}

const denseSlack = 4096

// denseSpread is how sparse the dense ids may be: at one id in four the
// slice (8 bytes a slot) still takes less than a map of them would (some
// 40 bytes an entry). Excerpts of logs are that sparse: the first 20,000
// jobs of CEA-Curie span 49,000 ids.
const denseSpread = 4

// number returns id's value when id is a canonical decimal number ("0",
// "17"; not "017", "+1" or "1.0", which are other ids) below 10^18.
func number(id string) (uint64, bool) {
	if id == "" || len(id) > 18 || (id[0] == '0' && len(id) > 1) {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

func (m *outcomes) get(id string) (outcome, bool) {
	if v, ok := number(id); ok {
		if i := v - m.base; v >= m.base && i < uint64(len(m.dense)) && m.dense[i] != 0 {
			return m.dense[i], true
		}
		o, ok := m.num[v]
		return o, ok
	}
	o, ok := m.str[id]
	return o, ok
}

func (m *outcomes) put(id string, o outcome) {
	v, ok := number(id)
	if ok && !m.based {
		// Jobs end roughly in id order: room below the first for those
		// that end a little later.
		m.base, m.based = v-min(v, denseSlack/2), true
	}
	i := v - m.base
	switch {
	case !ok:
		if m.str == nil {
			m.str = map[string]outcome{}
		}
		m.str[id] = o
		return
	case v < m.base:
		// Below the dense range: the map.
	case i < uint64(len(m.dense)):
		if m.dense[i] == 0 {
			m.nDense++
		}
		m.dense[i] = o
		delete(m.num, v) // an older job with the same id may be there
		return
	case i < uint64(denseSpread*(m.nDense+len(m.num))+denseSlack):
		// The ids kept in the map count too: after an early gap in the
		// numbering (CEA-Curie's first 2,000 ids span 11,000) every later
		// id would otherwise miss the window and go to the map.
		grew := i >= uint64(cap(m.dense))
		if grew { // double: append grows large slices by 1.25
			grown := make([]outcome, len(m.dense), max(2*cap(m.dense), int(i)+1, 1024))
			copy(grown, m.dense)
			m.dense = grown
		}
		// Past len, the array is still zero: dense never shrinks.
		m.dense = m.dense[:i+1]
		m.dense[i] = o
		m.nDense++
		delete(m.num, v)
		if grew {
			m.pullIntoDense()
		}
		return
	}
	if m.num == nil {
		m.num = map[uint64]outcome{}
	}
	m.num[v] = o
}

// pullIntoDense moves the map's ids that the dense range now covers into
// it. It runs when dense doubles, so it costs O(map) per doubling; the map
// is small whenever the ids are dense.
func (m *outcomes) pullIntoDense() {
	for v, o := range m.num {
		if i := v - m.base; v >= m.base && i < uint64(len(m.dense)) {
			if m.dense[i] == 0 {
				m.nDense++
			}
			m.dense[i] = o
			delete(m.num, v)
		}
	}
}

func (m *outcomes) len() int { return m.nDense + len(m.num) + len(m.str) }

// liveIDs maps the ids of jobs submitted and not ended to the latest job
// with each. Numeric ids, which a trace numbers mostly in arrival order,
// are kept by number in a sliding window (seqmap), without hashing.
type liveIDs struct {
	num seqmap.Map[*JobRun]
	str map[string]*JobRun
}

func (m *liveIDs) get(id string) *JobRun {
	if v, ok := number(id); ok {
		j, _ := m.num.Get(int64(v))
		return j
	}
	return m.str[id]
}

func (m *liveIDs) put(id string, j *JobRun) {
	if v, ok := number(id); ok {
		m.num.Put(int64(v), j)
		return
	}
	if m.str == nil {
		m.str = map[string]*JobRun{}
	}
	m.str[id] = j
}

func (m *liveIDs) remove(id string) {
	if v, ok := number(id); ok {
		m.num.Delete(int64(v))
		return
	}
	delete(m.str, id)
}

func (m *liveIDs) len() int { return m.num.Len() + len(m.str) }

// depRef is a held-back job and the index of one of its dependencies.
type depRef struct {
	job *JobRun
	dep int
}

// depHold is a held-back job's progress: dependencies not yet ended, and
// the release time so far.
type depHold struct {
	pending int
	release Time
}

// depState is the engine's dependency bookkeeping.
type depState struct {
	alive liveIDs  // submitted, not ended: the latest with each id
	done  outcomes // ended
	// shadowed holds alive jobs whose id a later job took: their end
	// changes nothing, since ids resolve to the later job.
	shadowed map[*JobRun]bool
	waiters  map[*JobRun][]depRef // alive job → dependencies on it
	held     map[*JobRun]*depHold // jobs not yet released
	// inPass is set while a job the scheduler rejected ends: the queue
	// must not change under the scheduler, so the jobs it releases now
	// enter the queue by an event at now, with a second pass at now.
	inPass bool
}

// arrive registers j's id and, unless j is already rejected for reason,
// resolves its dependencies. It returns why j can never run ("" if it
// can), and whether j is held back (not to be queued now). Call it once
// per job, in arrival order.
func (e *Engine) arrive(j *JobRun, reason string) (string, bool) {
	if e.cfg.NoDependencies {
		return reason, false
	}
	d := &e.deps
	if d.shadowed == nil {
		d.shadowed = map[*JobRun]bool{}
		d.waiters = map[*JobRun][]depRef{}
		d.held = map[*JobRun]*depHold{}
	}
	// Resolve first: an id names earlier jobs, never j itself.
	var h *depHold
	if reason == "" && len(j.Job.DependsOn) > 0 {
		h, reason = e.resolve(j)
	}
	if old := d.alive.get(j.Job.ID); old != nil {
		d.shadowed[old] = true
	}
	d.alive.put(j.Job.ID, j)
	switch {
	case reason != "" || h == nil:
		// A rejected job's registrations as a waiter are dropped when
		// those dependencies end (it is not in held).
		return reason, false
	case h.pending > 0:
		d.held[j] = h
		return "", true
	}
	return "", e.releaseAt(j, h)
}

// resolve looks up j's dependencies: those still alive get j as a waiter,
// those ended move its release time or give the reason it can never run.
func (e *Engine) resolve(j *JobRun) (*depHold, string) {
	d := &e.deps
	h := &depHold{release: j.TraceSubmit}
	for i, dep := range j.Job.DependsOn {
		if x := d.alive.get(dep.ID); x != nil {
			h.pending++
			d.waiters[x] = append(d.waiters[x], depRef{j, i})
			continue
		}
		o, ok := d.done.get(dep.ID)
		switch {
		case !ok && dep.ID == j.Job.ID:
			return h, "dependency " + dep.ID + " is the job itself"
		case !ok:
			return h, "dependency " + dep.ID + " is not in the trace (a job may only depend on earlier ones)"
		}
		if reason := h.meet(o, dep); reason != "" {
			return h, reason
		}
	}
	return h, ""
}

// meet applies the outcome of one ended dependency to h: the release time
// moves to its end plus think, or the reason it can never be met.
func (h *depHold) meet(o outcome, dep Dependency) string {
	if o.code() != outCompleted && !dep.AfterAny {
		if o.code() == outKilled {
			return "dependency " + dep.ID + " was killed"
		}
		return "dependency " + dep.ID + " was rejected"
	}
	h.release = max(h.release, o.end()+dep.Think)
	return ""
}

// releaseAt queues j now if its release time has come, else schedules
// the release and reports that j is held until then.
func (e *Engine) releaseAt(j *JobRun, h *depHold) (held bool) {
	if h.release <= e.now && !e.deps.inPass {
		return false
	}
	e.deps.held[j] = h
	e.push(max(h.release, e.now), evRelease, j)
	e.releases++
	return true
}

// released queues a held-back job whose release time has come, with its
// effective submit (see the top of this file).
func (e *Engine) released(j *JobRun) {
	delete(e.deps.held, j)
	if e.now > j.Job.Submit {
		job := *j.Job
		job.Submit = e.now
		j.Job = &job
	}
	e.enqueue(j)
}

// depEnded records that j ended (completed, killed or rejected) now, and
// releases or rejects the jobs waiting for it, and theirs in turn.
func (e *Engine) depEnded(j *JobRun) {
	if e.cfg.NoDependencies {
		return // no job waits: no id is remembered (Config.NoDependencies)
	}
	d := &e.deps
	if len(d.waiters) == 0 && len(d.shadowed) == 0 {
		// The common case: no job waits, no id is shared.
		d.alive.remove(j.Job.ID)
		d.done.put(j.Job.ID, packOutcome(e.now, j.Status))
		return
	}
	work := []*JobRun{j}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if d.shadowed[x] {
			delete(d.shadowed, x)
		} else {
			d.alive.remove(x.Job.ID)
			d.done.put(x.Job.ID, packOutcome(e.now, x.Status))
		}
		if len(d.waiters) == 0 {
			continue
		}
		refs := d.waiters[x]
		delete(d.waiters, x)
		for _, ref := range refs {
			w := ref.job
			h := d.held[w]
			if h == nil {
				continue // rejected since it registered
			}
			if reason := h.meet(packOutcome(e.now, x.Status), w.Job.DependsOn[ref.dep]); reason != "" {
				delete(d.held, w)
				w.Status = Rejected
				w.Reason = reason
				for _, o := range e.observers {
					o.Rejected(e.now, w)
				}
				work = append(work, w)
				continue
			}
			if h.pending--; h.pending == 0 {
				delete(d.held, w)
				if !e.releaseAt(w, h) {
					e.released(w)
				}
			}
		}
	}
}

// flushHeld puts the jobs still held back at the end of the run into the
// queue, in arrival order, so that observers' Finished sees them as
// queued: they never started.
func (e *Engine) flushHeld() {
	if len(e.deps.held) == 0 {
		return
	}
	held := make([]*JobRun, 0, len(e.deps.held))
	for j := range e.deps.held {
		held = append(held, j)
	}
	sort.Slice(held, func(a, b int) bool { return held[a].Seq < held[b].Seq })
	e.queue = append(e.queue, held...)
	clear(e.deps.held)
}

// Held counts the jobs submitted but held back by their dependencies: not
// yet in Queue().
func (c *Context) Held() int { return len(c.e.deps.held) }

// checkDeps is the Checker's own record of job ends, to verify that no job
// starts before its dependencies allow. It resolves ids as the engine
// does (the latest earlier job with the id) but from observer calls only.
type checkDeps struct {
	ids  map[string]*checkEnd
	open map[*JobRun]*checkEnd   // jobs submitted, not ended
	deps map[*JobRun][]*checkEnd // a job's resolved dependencies, nil = missing
}

type checkEnd struct {
	end    Time
	status JobStatus
	ended  bool
}

func (c *checkDeps) submitted(j *JobRun) {
	if c.ids == nil {
		c.ids = map[string]*checkEnd{}
		c.open = map[*JobRun]*checkEnd{}
		c.deps = map[*JobRun][]*checkEnd{}
	}
	if len(j.Job.DependsOn) > 0 {
		refs := make([]*checkEnd, len(j.Job.DependsOn))
		for i, d := range j.Job.DependsOn {
			refs[i] = c.ids[d.ID]
		}
		c.deps[j] = refs
	}
	x := &checkEnd{}
	c.ids[j.Job.ID] = x
	c.open[j] = x
}

// started checks j's dependencies had ended, as their conditions want,
// think time before now.
func (c *checkDeps) started(k *Checker, j *JobRun) {
	refs := c.deps[j]
	for i, d := range j.Job.DependsOn {
		if i >= len(refs) {
			break
		}
		x := refs[i]
		switch {
		case x == nil:
			k.fail("job %s starts but its dependency %s is not in the trace before it", j.Job.ID, d.ID)
		case !x.ended:
			k.fail("t=%s s: job %s starts before its dependency %s ended", j.Start, j.Job.ID, d.ID)
		case !d.AfterAny && x.status != Completed:
			k.fail("job %s starts though its dependency %s was %s", j.Job.ID, d.ID, x.status)
		case j.Start < x.end+d.Think:
			k.fail("job %s starts at %s s, before its dependency %s's end %s s + think %s s", j.Job.ID, j.Start, d.ID, x.end, d.Think)
		}
	}
}

func (c *checkDeps) ended(now Time, j *JobRun) {
	if x := c.open[j]; x != nil {
		x.end, x.status, x.ended = now, j.Status, true
		delete(c.open, j)
	}
	delete(c.deps, j)
}
