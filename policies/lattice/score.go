package lattice

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// jobInfo is what a queued job's score needs that does not change while it
// waits: its tenant, its request key and its static factors (f₁, f₅, f₈).
type jobInfo struct {
	tenant string
	key    string
	vc     string // the job's vCluster (VClusterOf)
	static Factors
}

// Ranked is one job of a pass's ranking: its factors and score.
type Ranked struct {
	Job     *sim.JobRun
	Factors Factors
	Score   float64
	Profile string
	// Borrows says the job can start now only on borrowed nodes: its
	// score carries the borrow penalty.
	Borrows bool
	info    *jobInfo
}

// info returns j's cached jobInfo, creating it on first sight.
func (s *Scheduler) jobInfo(j *sim.JobRun) *jobInfo {
	if in, ok := s.info[j]; ok {
		return in
	}
	in := &jobInfo{tenant: s.fs.Seen(j.Job), key: requestKey(j), vc: VClusterOf(j.Job)}
	in.static[FPriority] = PriorityClass(j.Job.Priority)
	in.static[FDataReady] = DataReadiness(j.Job)
	in.static[FCheckpoint] = CheckpointEfficiency(j.Job)
	s.info[j] = in
	return in
}

// requestKey identifies a compiled request and its immunities, so jobs
// asking the same per task share f₄, f₉ and failed-fit results in a pass.
func requestKey(j *sim.JobRun) string {
	b := make([]byte, 0, 12*len(j.Needs())+4*len(j.Immune()))
	for _, r := range j.Immune() {
		b = append(b, byte(r), byte(r>>8), byte(r>>16), 0xff)
	}
	for _, q := range j.Needs() {
		b = append(b, byte(q.Res), byte(q.Res>>8), byte(q.Res>>16), byte(q.Res>>24))
		for i := 0; i < 8; i++ {
			b = append(b, byte(uint64(q.Amt)>>(8*i)))
		}
	}
	return string(b)
}

// rank scores the queued jobs and sorts them by score, best first; ties go
// to the earlier submit, then the earlier arrival (FCFS), so the order is
// total and deterministic.
func (s *Scheduler) rank(c *sim.Context) []Ranked {
	now := c.Now()
	clear(s.caps)
	// The global factors: backlog pressure (f₆) and energy (f₇).
	var queuedNH, runningNH float64
	s.ranked = s.ranked[:0]
	for _, j := range c.Queue() {
		if j.Status != sim.Queued {
			continue
		}
		queuedNH += float64(j.Job.Tasks) * j.EstimatedRuntime().Seconds() / 3600
		in := s.jobInfo(j)
		s.ranked = append(s.ranked, Ranked{Job: j, info: in})
	}
	for _, j := range c.Running() {
		runningNH += float64(j.Job.Tasks) * (j.ExpectedEnd(now) - now).Seconds() / 3600
	}
	backlog := BacklogPressure(queuedNH, runningNH)
	energy := EnergyFactor(s.cfg.Prices.Normalised(now))
	for i := range s.ranked {
		r := &s.ranked[i]
		j, in := r.Job, r.info
		f := in.static
		f[FWaitTime] = WaitFactor(now-j.Job.Submit, s.cfg.ReferenceWait)
		f[FFairShare] = s.fs.Deficit(in.tenant)
		f[FTopology], f[FConformance] = s.capacitiesOf(c, j, in.key).factors(j.Job.Tasks)
		f[FBacklog] = backlog
		f[FEnergy] = energy
		p := s.cfg.Profiles.For(j.Job.Queue)
		r.Factors, r.Score, r.Profile = f, p.Weights.Score(&f), p.Name
		if s.vcs != nil && s.cfg.VClusters.BorrowPenalty > 0 && s.mustBorrow(c, j, in, p.RequireConformance) {
			r.Score -= s.cfg.VClusters.BorrowPenalty
			r.Borrows = true
		}
	}
	s.measureVariation(s.ranked)
	sort.Slice(s.ranked, func(a, b int) bool {
		x, y := &s.ranked[a], &s.ranked[b]
		if x.Score != y.Score {
			return x.Score > y.Score
		}
		if x.Job.Job.Submit != y.Job.Job.Submit {
			return x.Job.Job.Submit < y.Job.Job.Submit
		}
		return x.Job.Seq < y.Job.Seq
	})
	return s.ranked
}

// capacitiesOf measures, once per request per pass, how many tasks of the
// request each topology and conformance group can hold now.
func (s *Scheduler) capacitiesOf(c *sim.Context, j *sim.JobRun, key string) *capacities {
	if cp, ok := s.caps[key]; ok {
		return cp
	}
	if s.topoCap == nil {
		s.topoCap = make([]int, s.sel.topo.size())
		s.confCap = make([]int, s.sel.conf.size())
	}
	cp := measure(s.cl, c.FreeVector(), s.nowNodes(c, j.Needs()), j.Needs(), j.Immune(), &s.sel.topo, &s.sel.conf, s.topoCap, s.confCap)
	s.caps[key] = &cp
	return &cp
}

// Ranking returns the last pass's ranking (valid until the next pass), for
// tests and explanations.
func (s *Scheduler) Ranking() []Ranked { return s.ranked }
