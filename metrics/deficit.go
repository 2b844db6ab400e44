package metrics

import (
	"math"
	"sort"
)

// deficits integrates every tenant's deficit of held share over the busy
// time, for the tenants table's mean_deficit, without visiting every
// tenant at every instant.
//
// A tenant with target share T > 0 holding r of the H held by all has
// deficit max(0, T − r/H)/T = max(0, 1 − θ/H) with θ = r/T: positive
// exactly while H > θ (it is "under" its share). While r, T and the under
// state stay put, ∫ (1 − θ/H) dt over busy time is Δbusy − θ·Δg, where
// g = ∫ dt/H is one running total for everyone. So a tenant is visited only
// when its own θ changes (it starts or stops a job, or the number of
// tenants changes its equal share) or when H crosses its θ: the tenants
// are kept sorted by θ, and a change of H from H₀ to H₁ flips exactly those
// with θ in [min, max). T = 0 (configured shares without it) means θ = +∞:
// never under.
type deficits struct {
	busy, g float64 // busy seconds (H > 0) and ∫ dt/H over them
	sampled int64   // H at the last sample
	sorted  []*deficitAcc
	dirty   []*deficitAcc // θ changed since the last sample
	all     bool          // every θ changed
}

// deficitAcc is one tenant's part of deficits.
type deficitAcc struct {
	// rate is what the tenant's running tasks hold now of the main
	// resource, in milli-units: an integer, so starts and stops cancel
	// exactly.
	rate        int64
	theta       float64 // rate / target share
	under       bool    // H > θ at the last sample
	busyAt, gAt float64 // busy and g when last integrated
	integral    float64 // ∫ deficit dt over the busy time, s
	pos         int     // index in deficits.sorted
	queued      bool    // in deficits.dirty
}

// advance moves time on by ds seconds during which h was held.
func (d *deficits) advance(ds float64, h int64) {
	if h > 0 {
		d.busy += ds
		d.g += ds / float64(h)
	}
}

// integrate brings a's integral up to now.
func (d *deficits) integrate(a *deficitAcc) {
	if a.under {
		a.integral += (d.busy - a.busyAt) - a.theta*(d.g-a.gAt)
	}
	a.busyAt, a.gAt = d.busy, d.g
}

// add starts tracking a, holding nothing, with target share t.
func (d *deficits) add(a *deficitAcc, t float64) {
	a.busyAt, a.gAt, a.theta = d.busy, d.g, theta(0, t)
	a.pos = len(d.sorted)
	d.sorted = append(d.sorted, a)
	d.place(a)
	d.queue(a)
}

// setRate changes what a holds now, with target share t; its under state
// is settled at the next sample, once every event of the instant is
// applied.
func (d *deficits) setRate(a *deficitAcc, rate int64, t float64) {
	d.integrate(a)
	a.rate, a.theta = rate, theta(rate, t)
	d.place(a)
	d.queue(a)
}

// setShare changes every tenant's target share to t now (equal shares:
// a tenant appeared).
func (d *deficits) setShare(t float64) {
	for _, a := range d.sorted {
		d.integrate(a)
		a.theta = theta(a.rate, t)
	}
	sort.SliceStable(d.sorted, func(i, k int) bool { return d.sorted[i].theta < d.sorted[k].theta })
	for i, a := range d.sorted {
		a.pos = i
	}
	d.all = true
}

// place moves a to its position by θ, from wherever it is.
func (d *deficits) place(a *deficitAcc) {
	s, i := d.sorted, a.pos
	for i > 0 && s[i-1].theta > a.theta {
		s[i] = s[i-1]
		s[i].pos = i
		i--
	}
	for i+1 < len(s) && s[i+1].theta < a.theta {
		s[i] = s[i+1]
		s[i].pos = i
		i++
	}
	s[i], a.pos = a, i
}

func (d *deficits) queue(a *deficitAcc) {
	if !a.queued {
		a.queued = true
		d.dirty = append(d.dirty, a)
	}
}

// sample settles the under states for the held total h.
func (d *deficits) sample(h int64) {
	hf := float64(h)
	settle := func(a *deficitAcc) {
		if under := hf > a.theta; under != a.under {
			d.integrate(a)
			a.under = under
		}
	}
	if d.all {
		for _, a := range d.sorted {
			settle(a)
		}
	} else if h != d.sampled {
		lo, hi := float64(min(h, d.sampled)), float64(max(h, d.sampled))
		s := d.sorted
		for i := sort.Search(len(s), func(i int) bool { return s[i].theta >= lo }); i < len(s) && s[i].theta < hi; i++ {
			settle(s[i])
		}
	}
	for _, a := range d.dirty {
		settle(a)
		a.queued = false
	}
	d.dirty, d.all, d.sampled = d.dirty[:0], false, h
}

// theta is the threshold of a tenant holding rate with target share t.
func theta(rate int64, t float64) float64 {
	if t <= 0 {
		return math.Inf(1)
	}
	return float64(rate) / t
}
