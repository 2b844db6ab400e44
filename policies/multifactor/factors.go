package multifactor

import (
	"math"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Factors is one job's priority at one time, as sprio shows it: each
// factor in [0, 1], the partition's tier, the weighted sum and the
// integer priority Slurm would give.
type Factors struct {
	Age       float64
	FairShare float64
	JobSize   float64
	Partition float64
	QOS       float64
	// Tier is the partition's PriorityTier: the queue is ordered by it
	// before the priority.
	Tier int64
	// Sum is Σ weight × factor.
	Sum float64
	// Priority is Sum truncated to an integer and kept in 1…2³²−1, as
	// Slurm's job priority (0 is reserved for held jobs).
	Priority int64
}

// age is the age factor: the time queued over PriorityMaxAge, at most 1.
// With PriorityMaxAge 0 every job has 1, as in Slurm.
func (o *Order) age(j *sim.JobRun, now sim.Time) float64 {
	waited := now - j.Job.Submit
	switch {
	case waited >= o.maxAge: // first: Slurm's waited < PriorityMaxAge fails when both are 0
		return 1
	case waited <= 0:
		return 0
	}
	return float64(waited) / float64(o.maxAge)
}

// fairShare is the classic fair-share factor F = 2^(−U/S) of a tenant:
// U its normalised decayed usage, S its normalised shares; 0 for a tenant
// with no shares.
func (o *Order) fairShare(tenant string) float64 {
	s := o.normShares(tenant)
	if s <= 0 {
		return 0
	}
	return math.Exp2(-o.use.normalized(tenant) / s)
}

// normShares is a tenant's shares over the shares of every tenant known:
// those configured and those seen in the queue so far. A tenant not yet
// seen counts as if it were.
func (o *Order) normShares(tenant string) float64 {
	raw, listed := o.shares[tenant]
	if !listed {
		raw = 1
	}
	sum := o.sumShares
	if !listed && !o.seen[tenant] {
		sum++
	}
	if sum <= 0 {
		return 0
	}
	return raw / sum
}

// see registers a tenant for the shares' normalisation.
func (o *Order) see(tenant string) {
	if o.seen[tenant] {
		return
	}
	o.seen[tenant] = true
	if _, listed := o.shares[tenant]; !listed {
		o.sumShares++
	}
}

// jobSize is the job size factor as Slurm's multifactor plugin computes
// it: the mean of the job's share of the nodes and of the CPUs (the nodes
// alone when it asks for no CPU); with FavorSmall, of the shares it leaves
// free.
func (o *Order) jobSize(j *sim.JobRun) float64 {
	nodes := float64(o.minNodes(j))
	cpus := o.cpus(j)
	N, C := float64(o.nodes), o.cpuTotal
	var f float64
	if o.favorSmall {
		if N > nodes {
			f = (N - nodes) / N
		}
		if cpus > 0 && C > 0 {
			f = (f + (C-cpus)/C) / 2
		}
	} else {
		f = nodes / N
		if cpus > 0 && C > 0 {
			f = (f + cpus/C) / 2
		}
	}
	return min(max(f, 0), 1)
}

// cpus is what j asks of the cpu resource, over all its tasks; 0 when the
// cluster has none or j asks for none.
func (o *Order) cpus(j *sim.JobRun) float64 {
	if o.cpuRes < 0 {
		return 0
	}
	for _, q := range j.Needs() {
		if int(q.Res) == o.cpuRes {
			return float64(j.Job.Tasks) * q.Amt.Float()
		}
	}
	return 0
}

// minNodes is the fewest nodes j's tasks fit on, each node empty (Slurm's
// requested node count): tasks over the most of them one node holds, at
// least 1 and at most the cluster's nodes. SWF's node model gives one
// task per node, its pool model one node for all.
func (o *Order) minNodes(j *sim.JobRun) int {
	o.keyBuf = sim.AppendRequestKey(o.keyBuf[:0], j.Needs(), j.Immune())
	per, ok := o.perNode[string(o.keyBuf)]
	if !ok {
		c := o.cluster
		for n := range c.Nodes {
			if c.IsParent(n) {
				continue
			}
			per = max(per, c.TasksFitting(o.capacity, n, j.Needs(), j.Immune(), math.MaxInt32))
		}
		o.perNode[string(o.keyBuf)] = per
	}
	if per <= 0 {
		return o.nodes
	}
	k := (j.Job.Tasks + per - 1) / per
	return min(max(k, 1), o.nodes)
}

// partitions lists a job's partitions: its own (a comma-separated list
// when it may run in several), else the default partition.
func (o *Order) partitions(j *sim.Job) []string {
	p := j.Partition
	if p == "" {
		p = o.defaultPartition
	}
	if !strings.Contains(p, ",") {
		return []string{p}
	}
	return strings.Split(p, ",")
}

// partition is the partition factor (PriorityJobFactor over the highest
// of all partitions) and the tier of a job; for a job that may run in
// several partitions, the best of them.
func (o *Order) partition(j *sim.Job) (factor float64, tier int64) {
	for _, p := range o.partitions(j) {
		if o.maxPartition > 0 {
			factor = max(factor, float64(o.partFactor[p])/float64(o.maxPartition))
		}
		tier = max(tier, o.partTier[p])
	}
	return factor, tier
}

// qos is the QOS factor: the QOS's priority over the highest of all.
func (o *Order) qos(j *sim.Job) float64 {
	if o.maxQOS <= 0 {
		return 0
	}
	return float64(o.qosPrio[j.QOS]) / float64(o.maxQOS)
}

// factors computes j's priority at time now.
func (o *Order) factors(j *sim.JobRun, now sim.Time) Factors {
	f := Factors{
		Age:       o.age(j, now),
		FairShare: o.fairShare(o.cfg.Tenant(j.Job)),
		JobSize:   o.jobSize(j),
		QOS:       o.qos(j.Job),
	}
	f.Partition, f.Tier = o.partition(j.Job)
	w := o.cfg.Weights
	f.Sum = float64(w.Age)*f.Age + float64(w.FairShare)*f.FairShare + float64(w.JobSize)*f.JobSize +
		float64(w.Partition)*f.Partition + float64(w.QOS)*f.QOS
	f.Priority = min(max(int64(f.Sum), 1), math.MaxUint32)
	return f
}
