package multifactor

import (
	"math"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// usage is classic fair-share accounting: what each tenant's jobs have
// consumed, every unit counting 2^(−age/H) of itself after age seconds
// (H, the half-life; no decay when H = 0), and the same sum over all
// tenants. Between two changes a tenant consumes at a constant rate ρ,
// so bringing its usage from time a to t is exact:
//
//	U(t) = U(a)·d + ρ·H/ln 2·(1 − d),  d = 2^(−(t−a)/H)   (U(a) + ρ·(t−a) when H = 0)
//
// Slurm applies the same decay in steps of PriorityCalcPeriod (5 min by
// default, with a per-second factor 1 − 0.693/H); this is its limit as the
// period shrinks.
type usage struct {
	halfLife float64 // seconds
	tenants  map[string]*account
	total    account
	runs     map[*sim.JobRun]*run
	// ahead are booked runs that begin after the pass that started them
	// (nodes still waking), by start.
	ahead []*run
}

// account is one decayed usage, valid at time at, growing at rate.
type account struct {
	used float64 // unit-seconds, decayed to at
	rate float64 // units consumed per second now
	at   sim.Time
}

// run is one job's consumption: rate units from start on.
type run struct {
	job     *sim.JobRun
	tenant  *account
	rate    float64
	start   sim.Time
	counted bool // its rate is in tenant.rate and total.rate
}

func newUsage(halfLife sim.Time) *usage {
	return &usage{halfLife: halfLife.Seconds(), tenants: map[string]*account{}, runs: map[*sim.JobRun]*run{}}
}

// advance brings a to time t (never backwards).
func (a *account) advance(t sim.Time, halfLife float64) {
	if t <= a.at {
		return
	}
	dt := (t - a.at).Seconds()
	a.at = t
	if halfLife <= 0 {
		a.used += a.rate * dt
		return
	}
	d := math.Exp2(-dt / halfLife)
	a.used = a.used*d + a.rate*halfLife/math.Ln2*(1-d)
}

// account returns tenant's account, creating it at time now.
func (u *usage) account(tenant string, now sim.Time) *account {
	a, ok := u.tenants[tenant]
	if !ok {
		a = &account{at: now}
		u.tenants[tenant] = a
	}
	return a
}

// change adds delta to the rate of a tenant and of the total at time t.
func (u *usage) change(a *account, t sim.Time, delta float64) {
	a.advance(t, u.halfLife)
	u.total.advance(t, u.halfLife)
	a.rate = settle(a.rate + delta)
	u.total.rate = settle(u.total.rate + delta)
}

// settle zeroes what rounding leaves of a sum of rates back to nothing:
// rates are multiples of a thousandth (sim.Amount), far above it.
func settle(rate float64) float64 {
	if math.Abs(rate) < 1e-7 {
		return 0
	}
	return rate
}

// book records that j started consuming rate units at start (≥ now) for
// tenant.
func (u *usage) book(j *sim.JobRun, tenant string, rate float64, start, now sim.Time) {
	r := &run{job: j, tenant: u.account(tenant, now), rate: rate, start: start}
	u.runs[j] = r
	if start <= now {
		u.change(r.tenant, start, rate)
		r.counted = true
		return
	}
	i, _ := slices.BinarySearchFunc(u.ahead, r, func(a, b *run) int {
		switch {
		case a.start < b.start:
			return -1
		case a.start > b.start:
			return 1
		}
		return 0
	})
	// After runs of the same start: booking order, deterministic.
	for i < len(u.ahead) && u.ahead[i].start == start {
		i++
	}
	u.ahead = slices.Insert(u.ahead, i, r)
}

// stopAt is one booked run ending.
type stopAt struct {
	r *run
	t sim.Time
}

// catchUp applies, in time order, the runs that stopped (at their end
// times, each ≤ now) and the runs that began by now, then brings every
// account to now.
func (u *usage) catchUp(stops []stopAt, now sim.Time) {
	// Runs that stopped before they began never consumed.
	for _, s := range stops {
		if !s.r.counted && s.r.start >= s.t {
			u.ahead = slices.DeleteFunc(u.ahead, func(r *run) bool { return r == s.r })
		}
	}
	slices.SortStableFunc(stops, func(a, b stopAt) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	k := 0
	for _, s := range stops {
		for k < len(u.ahead) && u.ahead[k].start <= s.t {
			u.begin(u.ahead[k])
			k++
		}
		if s.r.counted {
			u.change(s.r.tenant, max(s.t, s.r.tenant.at), -s.r.rate)
		}
		delete(u.runs, s.r.job)
	}
	for k < len(u.ahead) && u.ahead[k].start <= now {
		u.begin(u.ahead[k])
		k++
	}
	u.ahead = slices.Delete(u.ahead, 0, k)
	for _, a := range u.tenants {
		a.advance(now, u.halfLife)
	}
	u.total.advance(now, u.halfLife)
}

func (u *usage) begin(r *run) {
	u.change(r.tenant, r.start, r.rate)
	r.counted = true
}

// normalized is a tenant's share of all decayed usage (Slurm's U =
// U_H/R_H): 0 before anything ran.
func (u *usage) normalized(tenant string) float64 {
	a, ok := u.tenants[tenant]
	if !ok || u.total.used <= 0 {
		return 0
	}
	return min(a.used/u.total.used, 1)
}

// used is a tenant's decayed usage in unit-seconds, as of the last
// catch-up.
func (u *usage) used(tenant string) float64 {
	if a, ok := u.tenants[tenant]; ok {
		return a.used
	}
	return 0
}
