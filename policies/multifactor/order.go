package multifactor

import (
	"fmt"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// Order is Slurm's multifactor priority as a queue order. Priorities move
// with time (age, fair-share), so the order is stateful: Wrap puts it
// around a batch scheduler, and at every pass it brings the usage up to
// date, scores every queued job and sorts the queue before the scheduler
// sees it. Less compares two jobs by the scores of the last pass, for the
// engine's insertion of jobs that arrive in between (sim.Config.Less).
type Order struct {
	cfg        Config
	cluster    *sim.Cluster
	maxAge     sim.Time
	favorSmall bool
	use        *usage

	shares    map[string]float64 // configured raw shares
	seen      map[string]bool    // tenants seen in the queue
	sumShares float64            // over configured and seen tenants

	defaultPartition string
	partFactor       map[string]int64
	partTier         map[string]int64
	maxPartition     int64
	qosPrio          map[string]int64
	maxQOS           int64

	nodes    int          // leaf nodes
	cpuRes   int          // index of resource "cpu", −1 when none
	cpuTotal float64      // cpus over the cluster
	capacity []sim.Amount // every node empty, for minNodes
	perNode  map[string]int
	keyBuf   []byte

	now    sim.Time
	keys   map[*sim.JobRun]rank
	ranked []ranked
	stops  []stopAt
}

// rank is what the queue is sorted by: tier and priority, higher first;
// then submit time and arrival, earlier first (Slurm's submit time and
// job id).
type rank struct {
	tier, priority int64
	submit         sim.Time
	seq            int64
}

type ranked struct {
	rank
	job *sim.JobRun
}

// before says whether a goes before b.
func (a rank) before(b rank) bool {
	switch {
	case a.tier != b.tier:
		return a.tier > b.tier
	case a.priority != b.priority:
		return a.priority > b.priority
	case a.submit != b.submit:
		return a.submit < b.submit
	}
	return a.seq < b.seq
}

// New returns the order for cluster c; cfg must pass Validate.
func New(cfg Config, c *sim.Cluster) (*Order, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	o := &Order{
		cfg:              cfg,
		cluster:          c,
		maxAge:           cfg.MaxAge(),
		favorSmall:       cfg.FavorSmall,
		use:              newUsage(cfg.DecayHalfLife()),
		shares:           map[string]float64{},
		seen:             map[string]bool{},
		defaultPartition: cfg.DefaultPartition,
		partFactor:       cfg.PartitionPriorities,
		partTier:         cfg.PartitionTiers,
		qosPrio:          cfg.QOSPriorities,
		cpuRes:           -1,
		perNode:          map[string]int{},
		keys:             map[*sim.JobRun]rank{},
	}
	for _, t := range sortedKeys(cfg.Shares) { // a fixed summation order
		o.shares[t] = cfg.Shares[t]
		o.sumShares += cfg.Shares[t]
	}
	for _, v := range cfg.PartitionPriorities {
		o.maxPartition = max(o.maxPartition, v)
	}
	for _, v := range cfg.QOSPriorities {
		o.maxQOS = max(o.maxQOS, v)
	}
	R := c.NumResources()
	o.capacity = make([]sim.Amount, len(c.Nodes)*R)
	for n := range c.Nodes {
		if !c.IsParent(n) {
			o.nodes++
		}
		for r := 0; r < R; r++ {
			a, ok := c.Capacity(n, r)
			if !ok {
				a = sim.Absent
			}
			o.capacity[n*R+r] = a
		}
	}
	if o.nodes == 0 {
		return nil, fmt.Errorf("multifactor: the cluster has no node that holds tasks")
	}
	if r, ok := c.ResourceIndex("cpu"); ok {
		o.cpuRes = r
		o.cpuTotal = c.TotalCapacity(r).Float()
	}
	return o, nil
}

// Less says whether a goes before b: a sim.Config.Less. Jobs scored at
// the last pass compare by those scores; a job that arrived since is
// scored as of that pass.
func (o *Order) Less(a, b *sim.JobRun) bool { return o.rankOf(a).before(o.rankOf(b)) }

func (o *Order) rankOf(j *sim.JobRun) rank {
	if r, ok := o.keys[j]; ok {
		return r
	}
	r := o.score(j)
	o.keys[j] = r
	return r
}

func (o *Order) score(j *sim.JobRun) rank {
	f := o.factors(j, o.now)
	return rank{tier: f.Tier, priority: f.Priority, submit: j.Job.Submit, seq: j.Seq}
}

// Factors returns j's priority as of the last pass.
func (o *Order) Factors(j *sim.JobRun) Factors { return o.factors(j, o.now) }

// Usage returns a tenant's decayed usage as of the last pass: cpu-seconds,
// node-seconds for jobs that ask for no cpu.
func (o *Order) Usage(tenant string) float64 { return o.use.used(tenant) }

// refresh starts a pass: it books the runs that stopped, scores every
// queued job as of now and sorts the queue.
func (o *Order) refresh(c *sim.Context) {
	now := c.Now()
	o.now = now
	o.stops = o.stops[:0]
	for _, j := range c.Ended() {
		r, ok := o.use.runs[j]
		if !ok {
			continue
		}
		end := now // a run stopped by a node event or a preemption
		if j.Status == sim.Completed || j.Status == sim.Killed {
			end = j.End
		}
		o.stops = append(o.stops, stopAt{r: r, t: end})
	}
	o.use.catchUp(o.stops, now)

	q := c.Queue()
	// Every queued tenant counts in the shares before any job is scored.
	for _, j := range q {
		o.see(o.cfg.Tenant(j.Job))
	}
	clear(o.keys)
	o.ranked = o.ranked[:0]
	for _, j := range q {
		r := o.score(j)
		o.keys[j] = r
		o.ranked = append(o.ranked, ranked{r, j})
	}
	slices.SortFunc(o.ranked, func(a, b ranked) int {
		switch {
		case a.before(b.rank):
			return -1
		case b.before(a.rank):
			return 1
		}
		return 0
	})
	for i, r := range o.ranked {
		q[i] = r.job
	}
}

// book ends a pass: the jobs it started begin to consume.
func (o *Order) book(c *sim.Context) {
	now := c.Now()
	for _, j := range c.Queue() {
		if j.Status != sim.Running {
			continue
		}
		if _, ok := o.use.runs[j]; ok {
			continue
		}
		t := o.cfg.Tenant(j.Job)
		o.see(t)
		o.use.book(j, t, o.consumption(j), j.Start, now)
	}
}

// consumption is what a running job is charged per second: its cpus
// (Slurm's default billing, allocated cpus), or the nodes it holds when
// it asks for no cpu.
func (o *Order) consumption(j *sim.JobRun) float64 {
	if cpus := o.cpus(j); cpus > 0 {
		return cpus
	}
	seen := map[int32]bool{}
	for _, n := range j.Nodes {
		seen[n] = true
	}
	return float64(len(seen))
}
