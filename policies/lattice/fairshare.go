package lattice

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// TenantKey, its values and Tenants live in sim, shared with the metrics.
type (
	TenantKey = sim.TenantKey
	Tenants   = sim.Tenants
)

// Tenant keys.
const (
	ByUser  = sim.ByUser
	ByGroup = sim.ByGroup
	ByQueue = sim.ByQueue
)

// UsageUnit says what a running job consumes per second of run time.
type UsageUnit string

// Usage units: node-seconds (distinct nodes a job holds) or cpu-seconds
// (its tasks × its per-task cpu request; nodes when it asks for no cpu).
const (
	NodeSeconds UsageUnit = "node"
	CPUSeconds  UsageUnit = "cpu"
)

// FairShare tracks each tenant's decayed usage and gives f₃.
//
// Usage decays with a half-life H: a unit consumed Δ ago counts 2^(−Δ/H)
// (H = 0: no decay). Jobs start and end only at event times, between which
// each tenant consumes at a constant rate ρ, so advancing by Δ is exact:
//
//	U ← U·d + ρ·H/ln 2·(1 − d),  d = 2^(−Δ/H)   (U ← U + ρ·Δ without decay)
//
// A tenant's actual share is its usage over all tenants' usage (0 before
// anything ran); its target share is its configured share over the sum of
// the configured shares. With no shares configured every tenant seen so
// far has an equal target; a tenant missing from configured shares has
// target 0 and so no deficit.
type FairShare struct {
	tenants  Tenants
	unit     UsageUnit
	halfLife sim.Time
	shares   map[string]float64 // normalised targets; nil for equal shares
	usage    map[string]float64 // decayed, in unit-seconds
	rate     map[string]float64 // current consumption, units
	jobRate  map[*sim.JobRun]float64
	seen     []string // tenants in first-seen order, for equal shares
	last     sim.Time
	total    float64
}

// NewFairShare returns a tracker. shares may be nil (equal shares).
func NewFairShare(t Tenants, unit UsageUnit, halfLife sim.Time, shares map[string]float64) (*FairShare, error) {
	fs := &FairShare{tenants: t, unit: unit, halfLife: halfLife, usage: map[string]float64{}, rate: map[string]float64{}, jobRate: map[*sim.JobRun]float64{}}
	if len(shares) > 0 {
		names := make([]string, 0, len(shares))
		var sum float64
		for n, s := range shares {
			if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
				return nil, fmt.Errorf("share of tenant %q must be a finite number ≥ 0, got %s", n, sim.FormatNumber(s))
			}
			names = append(names, n)
		}
		sort.Strings(names) // a fixed summation order
		for _, n := range names {
			sum += shares[n]
		}
		if sum <= 0 {
			return nil, fmt.Errorf("tenant shares sum to 0")
		}
		fs.shares = map[string]float64{}
		for _, n := range names {
			fs.shares[n] = shares[n] / sum
		}
	}
	return fs, nil
}

// Tenant returns j's tenant.
func (fs *FairShare) Tenant(j *sim.Job) string { return fs.tenants.Of(j) }

// Advance decays and accrues usage up to now.
func (fs *FairShare) Advance(now sim.Time) {
	dt := now - fs.last
	if dt <= 0 {
		return
	}
	fs.last = now
	sec := dt.Seconds()
	d, accrue := 1.0, sec
	if fs.halfLife > 0 {
		h := fs.halfLife.Seconds()
		d = math.Exp2(-sec / h)
		accrue = h / math.Ln2 * (1 - d)
	}
	fs.total = 0
	for _, t := range fs.seen {
		u := fs.usage[t]*d + fs.rate[t]*accrue
		fs.usage[t] = u
		fs.total += u
	}
}

// Started books a job that started now.
func (fs *FairShare) Started(c *sim.Context, j *sim.JobRun) {
	t := fs.touch(fs.tenants.Of(j.Job))
	r := fs.consumption(c.Cluster(), j)
	fs.jobRate[j] = r
	fs.rate[t] += r
}

// Stopped books a job that ended or was stopped.
func (fs *FairShare) Stopped(j *sim.JobRun) {
	r, ok := fs.jobRate[j]
	if !ok {
		return
	}
	delete(fs.jobRate, j)
	fs.rate[fs.tenants.Of(j.Job)] -= r
}

// Seen registers a tenant (a queued job's) so equal shares count it.
func (fs *FairShare) Seen(j *sim.Job) string { return fs.touch(fs.tenants.Of(j)) }

func (fs *FairShare) touch(t string) string {
	if _, ok := fs.usage[t]; !ok {
		fs.usage[t] = 0
		fs.seen = append(fs.seen, t)
	}
	return t
}

// consumption is j's rate in the tracker's unit.
func (fs *FairShare) consumption(c *sim.Cluster, j *sim.JobRun) float64 {
	if fs.unit == CPUSeconds {
		if r, ok := c.ResourceIndex("cpu"); ok {
			for _, q := range j.Needs() {
				if int(q.Res) == r {
					return float64(j.Job.Tasks) * q.Amt.Float()
				}
			}
		}
	}
	return float64(distinct(j.Nodes))
}

// distinct counts the distinct nodes of a task → node list.
func distinct(nodes []int32) int {
	if len(nodes) <= 32 {
		k := 0
		for i, n := range nodes {
			if !slices.Contains(nodes[:i], n) {
				k++
			}
		}
		return k
	}
	s := slices.Clone(nodes)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// Target is a tenant's normalised target share.
func (fs *FairShare) Target(tenant string) float64 {
	if fs.shares != nil {
		return fs.shares[tenant]
	}
	if len(fs.seen) == 0 {
		return 0
	}
	return 1 / float64(len(fs.seen))
}

// Actual is a tenant's fraction of all decayed usage.
func (fs *FairShare) Actual(tenant string) float64 {
	if fs.total <= 0 {
		return 0
	}
	return fs.usage[tenant] / fs.total
}

// Deficit is f₃ for tenant.
func (fs *FairShare) Deficit(tenant string) float64 {
	return FairShareDeficit(fs.Target(tenant), fs.Actual(tenant))
}

// Usage returns a tenant's decayed usage in unit-seconds.
func (fs *FairShare) Usage(tenant string) float64 { return fs.usage[tenant] }
