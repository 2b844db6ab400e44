package sim

import "math"

// Limits cap what a user, and a queue, may have running at once (a job
// without a user or a queue escapes that cap): Slurm's
// MaxJobsPerUser and MaxTRESPerUser=cpu=N (on a QOS or an association),
// Maui's MAXJOB and MAXPROC. Zero means no cap. Processors are the
// cluster's main resource (cpu when it has one, else the first): a job
// holds its tasks × its per-task amount of it.
//
// A job over a cap is not shown to the scheduler (Context.Queue) until
// the user's or queue's running jobs leave room: it holds no reservation
// and blocks no one, as a job pending for an association or QOS limit in
// Slurm. The jobs shown in a pass are, per user and per queue, the first
// ones in queue order that fit under the caps together with what runs, so
// a shown job that does not fit keeps a later one of the same user out
// until the next pass.
//
// A hidden job becomes visible when a job of its user or queue ends, and
// also when the scheduler rejects a shown one: the engine then runs the
// pass again at the same instant with the queue rebuilt, and
// Context.Revealed names the jobs shown that the previous pass hid (a
// policy that skips jobs it already tried must try those).
type Limits struct {
	JobsPerUser, ProcsPerUser   int64
	JobsPerQueue, ProcsPerQueue int64
}

// Enabled says whether any cap is set.
func (l Limits) Enabled() bool { return l != Limits{} }

// usage is what one user or queue has running (or, while a pass's queue
// is built, running and shown).
type usage struct{ jobs, procs int64 }

// limitState counts the running jobs and processors by user and queue.
type limitState struct {
	res int32 // the main resource, -1 when the cluster has none
	// cal, when set, holds back the jobs its window at the pass does not
	// admit (calendar.go); calHeld says the last pass held one.
	cal          Calendar
	window       Window
	now          Time
	calHeld      bool
	user, queue  map[string]usage
	shown        []*JobRun // the queue of the current pass
	tUser, tQueu map[string]usage
	// pass numbers the passes; a hidden job's hiddenPass is the last pass
	// that hid it, so a job shown with hiddenPass == pass-1 is revealed.
	pass     int64
	revealed []*JobRun
}

func newLimitState(c *Cluster, cal Calendar) *limitState {
	res := int32(-1)
	if i, ok := c.resIndex["cpu"]; ok {
		res = int32(i)
	} else if len(c.Resources) > 0 {
		res = 0
	}
	// An ended window: the first pass computes its own.
	return &limitState{res: res, cal: cal, window: Window{End: math.MinInt64}, user: map[string]usage{}, queue: map[string]usage{},
		tUser: map[string]usage{}, tQueu: map[string]usage{}}
}

// procs is j's amount of the main resource, in whole units (rounded up).
func (s *limitState) procs(j *JobRun) int64 {
	for _, q := range j.req {
		if q.Res == s.res {
			return (int64(q.Amt)*int64(j.Job.Tasks) + int64(Milli) - 1) / int64(Milli)
		}
	}
	return 0
}

// add counts j as running (sign 1) or no longer running (-1). A job
// without a user (or queue) is not counted against one.
func (s *limitState) add(j *JobRun, sign int64) {
	p := s.procs(j) * sign
	if name := j.Job.User; name != "" {
		u := s.user[name]
		u.jobs, u.procs = u.jobs+sign, u.procs+p
		s.user[name] = u
	}
	if name := j.Job.Queue; name != "" {
		q := s.queue[name]
		q.jobs, q.procs = q.jobs+sign, q.procs+p
		s.queue[name] = q
	}
}

// within says whether u plus one job of p processors stays under the caps.
func within(u usage, p, maxJobs, maxProcs int64) bool {
	return (maxJobs == 0 || u.jobs+1 <= maxJobs) && (maxProcs == 0 || u.procs+p <= maxProcs)
}

// walk visits the queued jobs in queue order, each with whether the
// calendar's window admits it and it fits under the caps together with
// what runs and the jobs shown before it; visit returns false to stop.
func (s *limitState) walk(l Limits, queue []*JobRun, visit func(j *JobRun, shown bool) bool) {
	clear(s.tUser)
	clear(s.tQueu)
	for _, j := range queue {
		if j.Status != Queued {
			continue
		}
		if s.cal != nil && !s.window.Admits(s.now, j.EstimatedRuntime()) {
			s.calHeld = true
			if !visit(j, false) {
				return
			}
			continue
		}
		p := s.procs(j)
		u, ok := s.tUser[j.Job.User]
		if !ok {
			u = s.user[j.Job.User]
		}
		q, ok := s.tQueu[j.Job.Queue]
		if !ok {
			q = s.queue[j.Job.Queue]
		}
		shown := (j.Job.User == "" || within(u, p, l.JobsPerUser, l.ProcsPerUser)) &&
			(j.Job.Queue == "" || within(q, p, l.JobsPerQueue, l.ProcsPerQueue))
		if shown {
			s.tUser[j.Job.User] = usage{u.jobs + 1, u.procs + p}
			s.tQueu[j.Job.Queue] = usage{q.jobs + 1, q.procs + p}
		}
		if !visit(j, shown) {
			return
		}
	}
}

// passQueue is the queue the scheduler sees in a pass at now: the jobs
// the calendar admits and that fit under the caps, in queue order. It
// numbers the pass and notes the jobs the previous pass hid.
func (s *limitState) passQueue(l Limits, queue []*JobRun, now Time) []*JobRun {
	if s.cal != nil {
		s.now = now
		if now >= s.window.End { // the window of the last pass holds until its End
			s.window = s.cal.At(now)
		}
	}
	s.calHeld = false
	s.shown = s.shown[:0]
	s.revealed = s.revealed[:0]
	s.pass++
	s.walk(l, queue, func(j *JobRun, shown bool) bool {
		if !shown {
			j.hiddenPass = s.pass
			return true
		}
		if j.hiddenPass != 0 && j.hiddenPass == s.pass-1 {
			s.revealed = append(s.revealed, j)
		}
		s.shown = append(s.shown, j)
		return true
	})
	return s.shown
}

// wouldReveal says whether a pass now would show a job the last pass hid.
func (s *limitState) wouldReveal(l Limits, queue []*JobRun) bool {
	found := false
	s.walk(l, queue, func(j *JobRun, shown bool) bool {
		found = shown && j.hiddenPass == s.pass
		return !found
	})
	return found
}
