package sim

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
	res          int32 // the main resource, -1 when the cluster has none
	user, queue  map[string]usage
	shown        []*JobRun // the queue of the current pass
	tUser, tQueu map[string]usage
}

func newLimitState(c *Cluster) *limitState {
	res := int32(-1)
	if i, ok := c.resIndex["cpu"]; ok {
		res = int32(i)
	} else if len(c.Resources) > 0 {
		res = 0
	}
	return &limitState{res: res, user: map[string]usage{}, queue: map[string]usage{},
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

// passQueue is the queue the scheduler sees in a pass: the jobs that fit
// under the caps, in queue order.
func (s *limitState) passQueue(l Limits, queue []*JobRun) []*JobRun {
	clear(s.tUser)
	clear(s.tQueu)
	s.shown = s.shown[:0]
	for _, j := range queue {
		if j.Status != Queued {
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
		if j.Job.User != "" && !within(u, p, l.JobsPerUser, l.ProcsPerUser) ||
			j.Job.Queue != "" && !within(q, p, l.JobsPerQueue, l.ProcsPerQueue) {
			continue
		}
		s.tUser[j.Job.User] = usage{u.jobs + 1, u.procs + p}
		s.tQueu[j.Job.Queue] = usage{q.jobs + 1, q.procs + p}
		s.shown = append(s.shown, j)
	}
	return s.shown
}
