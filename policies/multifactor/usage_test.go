package multifactor

import (
	"math"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

// interval is one run for the closed form: rate units over [start, end).
type interval struct {
	tenant     string
	rate       float64
	start, end float64 // seconds; end < 0: still running
}

// direct is the decayed usage of a tenant at time t computed from the
// definition, run by run: ∫ ρ·2^(−(t−x)/H) dx over the part of each run
// before t, which is ρ·H/ln 2·(2^(−(t−e)/H) − 2^(−(t−s)/H)); ρ·(e − s)
// without decay.
func direct(runs []interval, tenant string, t, h float64) float64 {
	var u float64
	for _, r := range runs {
		if tenant != "" && r.tenant != tenant {
			continue
		}
		s, e := r.start, r.end
		if e < 0 || e > t {
			e = t
		}
		if e <= s {
			continue
		}
		if h == 0 {
			u += r.rate * (e - s)
			continue
		}
		u += r.rate * h / math.Ln2 * (math.Exp2(-(t-e)/h) - math.Exp2(-(t-s)/h))
	}
	return u
}

// The tracker, fed the way a run feeds it (runs booked at passes, some
// starting later because their nodes wake, one stopped before it began,
// stops reported at the next pass), agrees with the closed form at every
// pass, with and without decay.
func TestUsageMatchesClosedForm(t *testing.T) {
	runs := []interval{
		{"A", 32, 0, 400},
		{"B", 8, 50, 130},
		{"A", 4, 100, -1},
		{"B", 16, 130, 700},
		{"C", 2.5, 160, 170}, // booked at 150, starts at 160 (waking nodes)
		{"C", 6, 300, 280},   // booked at 250 to start at 300, stopped at 280: never ran
		{"A", 1, 600, 650},
	}
	// booked[i] is the pass at which run i started; passes are every
	// booking and end time and a few others.
	booked := []float64{0, 50, 100, 130, 150, 250, 600}
	passes := []float64{0, 50, 100, 130, 150, 170, 250, 280, 400, 600, 650, 700, 1000, 5000}
	for _, h := range []float64{0, 400, 86400} {
		u := newUsage(sim.SecondsToTime(h))
		jobs := make([]*sim.JobRun, len(runs))
		for i := range jobs {
			jobs[i] = &sim.JobRun{}
		}
		for _, p := range passes {
			now := sim.SecondsToTime(p)
			var stops []stopAt
			for i, r := range runs {
				if r.end >= 0 && r.end <= p && u.runs[jobs[i]] != nil {
					stops = append(stops, stopAt{u.runs[jobs[i]], sim.SecondsToTime(r.end)})
				}
			}
			u.catchUp(stops, now)
			for _, tenant := range []string{"A", "B", "C", ""} {
				got := u.total.used
				if tenant != "" {
					got = u.used(tenant)
				}
				want := direct(runs, tenant, p, h)
				if math.Abs(got-want) > 1e-9*max(1, want) {
					t.Errorf("H=%g t=%g tenant %q: usage %.12g, closed form %.12g", h, p, tenant, got, want)
				}
			}
			for i, r := range runs {
				if booked[i] == p {
					u.book(jobs[i], r.tenant, r.rate, sim.SecondsToTime(r.start), now)
				}
			}
		}
		if len(u.runs) != 1 || len(u.ahead) != 0 {
			t.Errorf("H=%g: %d runs booked and %d ahead at the end, want the one still running and none", h, len(u.runs), len(u.ahead))
		}
	}
}

// One half-life after a tenant stops, its usage is half of what it was:
// the decay of PriorityDecayHalfLife.
func TestUsageHalvesEveryHalfLife(t *testing.T) {
	u := newUsage(1000 * sim.Second)
	j := &sim.JobRun{}
	u.catchUp(nil, 0)
	u.book(j, "A", 10, 0, 0)
	u.catchUp([]stopAt{{u.runs[j], 500 * sim.Second}}, 500*sim.Second)
	at500 := u.used("A")
	u.catchUp(nil, 1500*sim.Second)
	if got := u.used("A"); math.Abs(got-at500/2) > 1e-9*at500 {
		t.Errorf("usage %g a half-life after %g, want %g", got, at500, at500/2)
	}
}

// In an engine run the order charges each job its cpus × seconds from its
// start to its end: at the last pass the usage matches the closed form
// over the recorded starts and ends.
func TestEngineUsageMatchesClosedForm(t *testing.T) {
	cfg := Config{Weights: Weights{FairShare: 1000, Age: 100}, DecayHalfLifeS: seconds(300)}
	jobs := []job{
		{id: "a1", submit: 0, runtime: 200, tasks: 2, cpus: 8, account: "A"},
		{id: "b1", submit: 10, runtime: 150, tasks: 1, cpus: 4, account: "B"},
		{id: "a2", submit: 20, runtime: 120, tasks: 2, cpus: 8, account: "A"},
		{id: "b2", submit: 30, runtime: 90, tasks: 3, cpus: 8, account: "B"},
		{id: "c1", submit: 40, runtime: 60, walltime: 100, tasks: 1, cpus: 2, account: "C"},
		{id: "a3", submit: 400, runtime: 50, tasks: 1, cpus: 8, account: "A"},
	}
	var last *usageSpy
	o, rec := play(t, cluster(t, 4), cfg, policies.EASY, jobs, func(o *Order, inner sim.Scheduler) sim.Scheduler {
		last = &usageSpy{o: o, inner: inner}
		return last
	})
	var runs []interval
	byID := map[string]job{}
	for _, j := range jobs {
		byID[j.id] = j
	}
	for id, at := range rec.at {
		j := byID[id]
		s := at.Seconds()
		runs = append(runs, interval{tenant: j.account, rate: float64(j.tasks) * float64(j.cpus), start: s, end: s + j.runtime})
	}
	now := last.now.Seconds()
	for _, tenant := range []string{"A", "B", "C"} {
		want := direct(runs, tenant, now, 300)
		if got := o.Usage(tenant); math.Abs(got-want) > 1e-9*max(1, want) {
			t.Errorf("tenant %s at t=%g: usage %.12g, closed form %.12g", tenant, now, got, want)
		}
	}
}

// usageSpy remembers the time of the last pass.
type usageSpy struct {
	o     *Order
	inner sim.Scheduler
	now   sim.Time
}

func (s *usageSpy) Schedule(c *sim.Context) error {
	s.now = c.Now()
	return s.inner.Schedule(c)
}
