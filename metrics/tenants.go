package metrics

import (
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// Tenant keys of Options.Tenants: the job field that names a job's tenant.
const (
	TenantsByUser  = "user"
	TenantsByGroup = "group"
	TenantsByQueue = "queue"
)

// tenantAcc is one tenant's running totals. Its memory is a few numbers
// plus one wait per started job (as the summary keeps all waits, for an
// exact p95).
type tenantAcc struct {
	ledger  *tenantLedger // the owner, which may find it on a JobRun
	name    string
	jobs    int64    // submitted
	waits   floatLog // first-start waits, s
	bsldSum float64  // over ended jobs
	bsldN   int64
	// usage is ∫ rate dt in unit·seconds, up to usedTo: it is brought
	// up to date when the rate changes and at the end, so an event costs
	// nothing for the tenants it does not touch.
	usage  float64
	usedTo sim.Time
	// The rate held now, and the deficit of the tenant's share of what is
	// held (rate over all tenants' rate) integrated over the busy time:
	// mean_deficit.
	deficitAcc
}

// use integrates the tenant's usage up to now.
func (a *tenantAcc) use(now sim.Time) {
	if a.rate != 0 {
		// milli-units × microseconds / 1e9 = unit·seconds
		a.usage += float64(a.rate) * float64(now-a.usedTo) / 1e9
	}
	a.usedTo = now
}

// tenantLedger keeps the per-tenant accumulators of the tenants table and
// of the Jain columns of the summary. It is streaming: O(tenants) memory
// besides the waits; an event costs O(log tenants) plus the tenants whose
// deficit it turns on or off (deficit.go), and a new tenant under equal
// shares O(tenants).
//
// Tenants are named as the Lattice queue names them (sim.Tenants.Of,
// reused so the metrics' tenants are the scheduler's, bucket rule
// included).
type tenantLedger struct {
	key  sim.Tenants
	main int // the resource whose use is usage: cpu, else the first; -1: none
	// shares are the configured targets normalised to sum 1; nil means
	// equal shares over the tenants seen.
	shares map[string]float64
	idx    map[string]int
	ts     []*tenantAcc
	last   sim.Time // time up to which def is integrated
	begun  bool
	held   int64 // Σ rate
	def    deficits
	dirty  bool // a job event since the last deficit sample
}

func newTenantLedger(c *sim.Cluster, opt *Options) *tenantLedger {
	l := &tenantLedger{
		key:  sim.Tenants{Key: sim.TenantKey(opt.Tenants), Buckets: opt.TenantBuckets},
		main: mainResourceOf(c),
		idx:  map[string]int{},
	}
	if len(opt.Shares) > 0 {
		names := make([]string, 0, len(opt.Shares))
		for n := range opt.Shares {
			names = append(names, n)
		}
		sort.Strings(names) // a fixed summation order
		var sum float64
		for _, n := range names {
			sum += opt.Shares[n]
		}
		l.shares = make(map[string]float64, len(names))
		for _, n := range names {
			l.shares[n] = opt.Shares[n] / sum
			// A tenant with a share is under-served from the start, jobs
			// or not: it gets its row and accrues deficit.
			l.tenant(n)
		}
	}
	return l
}

// tenant returns name's accumulator, creating it.
func (l *tenantLedger) tenant(name string) *tenantAcc {
	if i, ok := l.idx[name]; ok {
		return l.ts[i]
	}
	a := &tenantAcc{ledger: l, name: name, usedTo: l.last}
	l.idx[name] = len(l.ts)
	l.ts = append(l.ts, a)
	l.def.add(&a.deficitAcc, l.target(name))
	if l.shares == nil { // every equal share changed
		l.def.setShare(l.target(name))
	}
	l.dirty = true
	return a
}

// of returns the tenant of run (whose job is job), found by name at the
// job's first event and kept on the JobRun for the others. The recorder
// goroutine alone uses ObserverState: the engine never touches it.
func (l *tenantLedger) of(run *sim.JobRun, job *sim.Job) *tenantAcc {
	if a, ok := run.ObserverState.(*tenantAcc); ok && a.ledger == l {
		return a
	}
	a := l.tenant(l.key.Of(job))
	run.ObserverState = a
	return a
}

// target is a tenant's normalised target share: its configured share, 0
// when shares are configured without it, else 1/(tenants seen).
func (l *tenantLedger) target(name string) float64 {
	if l.shares != nil {
		return l.shares[name]
	}
	return 1 / float64(len(l.ts))
}

// advance moves the busy time up to now (the tenants' own integrals
// follow lazily). Call it before any rate changes.
func (l *tenantLedger) advance(now sim.Time) {
	if !l.begun {
		l.begun, l.last = true, now
		for _, a := range l.ts { // tenants with shares, made before
			a.usedTo = now
		}
		return
	}
	if now <= l.last {
		return
	}
	l.def.advance((now - l.last).Seconds(), l.held)
	l.last = now
}

// setRate changes a's rate by delta at the ledger's current time.
func (l *tenantLedger) setRate(a *tenantAcc, delta int64) {
	if delta == 0 {
		return
	}
	a.use(l.last)
	l.held += delta
	l.def.setRate(&a.deficitAcc, a.rate+delta, l.target(a.name))
	l.dirty = true
}

// sample settles the tenants' deficits of held share once all events of
// a time are applied (deficit.go); the recorder calls it at each step that
// had a job event. Held share, not cumulative usage: over a long trace every
// job eventually runs and cumulative shares hardly depend on the
// schedule, while who holds the machine at each moment is exactly what a
// fair-share policy decides.
func (l *tenantLedger) sample() {
	if !l.dirty {
		return
	}
	l.dirty = false
	l.def.sample(l.held)
}

// share is usage over total, 0 before anything ran.
func share(usage, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return usage / total
}

// rateOf is what a job's tasks (one per node entry, each needing needs)
// hold of the main resource, in milli-units: tasks × per-task amount.
func (l *tenantLedger) rateOf(needs []sim.Need, nodes []int32) int64 {
	if l.main < 0 {
		return 0
	}
	for _, q := range needs {
		if int(q.Res) == l.main {
			return int64(q.Amt) * int64(len(nodes))
		}
	}
	return 0
}

func (l *tenantLedger) submitted(now sim.Time, run *sim.JobRun, job *sim.Job) {
	l.advance(now)
	l.of(run, job).jobs++
}

// started counts the wait at the first start only (as the summary does);
// every run, restarts included, holds resources.
func (l *tenantLedger) started(ev *event, nodes []int32) {
	l.advance(ev.now)
	a := l.of(ev.run, ev.job)
	if ev.restarts == 0 {
		a.waits.add((ev.start - ev.job.Submit).Seconds())
	}
	l.setRate(a, l.rateOf(ev.needs, nodes))
}

// stopped releases a run's resources (an end or a requeue).
func (l *tenantLedger) stopped(ev *event, nodes []int32) {
	l.advance(ev.now)
	l.setRate(l.of(ev.run, ev.job), -l.rateOf(ev.needs, nodes))
}

func (l *tenantLedger) ended(ev *event, nodes []int32, bsld float64) {
	l.stopped(ev, nodes)
	a := l.of(ev.run, ev.job)
	a.bsldSum += bsld
	a.bsldN++
}

// tenantRow is one row of the tenants table, final.
type tenantRow struct {
	name                                        string
	jobs                                        int64
	meanWait, p95Wait, meanBsld                 float64
	usage, usageShare, target, deficit, meanDef float64
}

// rows returns the final rows sorted by tenant name.
func (l *tenantLedger) rows() []tenantRow {
	nan := math.NaN()
	// Bring every tenant's integrals up to the end (idempotent), then sum
	// the usage in tenant order.
	var total float64
	for _, a := range l.ts {
		a.use(l.last)
		l.def.integrate(&a.deficitAcc)
		total += a.usage
	}
	rows := make([]tenantRow, 0, len(l.ts))
	for _, a := range l.ts {
		r := tenantRow{name: a.name, jobs: a.jobs, meanWait: nan, meanBsld: nan, usage: a.usage, meanDef: nan}
		waits := a.waits.sorted()
		if n := len(waits); n > 0 {
			var s float64
			for _, w := range waits {
				s += w
			}
			r.meanWait = s / float64(n)
		}
		r.p95Wait = Quantile(waits, 0.95)
		if a.bsldN > 0 {
			r.meanBsld = a.bsldSum / float64(a.bsldN)
		}
		r.usageShare = share(a.usage, total)
		r.target = l.target(a.name)
		r.deficit = sim.FairShareDeficit(r.target, r.usageShare)
		if l.def.busy > 0 {
			r.meanDef = a.integral / l.def.busy
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, k int) bool { return rows[i].name < rows[k].name })
	return rows
}

// jains returns Jain's index over the tenants' mean bsld (tenants with an
// ended job) and over usage_share / target_share (tenants with a target).
func jains(rows []tenantRow) (bsld, usage float64) {
	var xs, ys []float64
	for _, r := range rows {
		if !math.IsNaN(r.meanBsld) {
			xs = append(xs, r.meanBsld)
		}
		if r.target > 0 {
			ys = append(ys, r.usageShare/r.target)
		}
	}
	return jain(xs), jain(ys)
}

// jain is Jain's fairness index (Σx)² / (n·Σx²) of non-negative xs: 1 when
// all are equal, 1/n when one has everything. It is NaN (a null column)
// for no values or all zeros, where it is undefined.
func jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if len(xs) == 0 || s2 == 0 {
		return math.NaN()
	}
	return s * s / (float64(len(xs)) * s2)
}

// tenantsSchema declares the tenants table.
var tenantsSchema = func() *arrow.Schema {
	f64 := arrow.PrimitiveTypes.Float64
	nf := func(name string) arrow.Field { return arrow.Field{Name: name, Type: f64, Nullable: true} }
	return arrow.NewSchema([]arrow.Field{
		{Name: "tenant", Type: arrow.BinaryTypes.String},
		{Name: "jobs", Type: arrow.PrimitiveTypes.Int64},
		nf("mean_wait_s"), // null: no job started
		nf("p95_wait_s"),
		nf("mean_bsld"),                  // null: no job ended
		{Name: "usage", Type: f64},       // main-resource unit·seconds
		{Name: "usage_share", Type: f64}, // of all tenants' usage
		{Name: "target_share", Type: f64},
		{Name: "deficit", Type: f64}, // at the end of the run
		nf("mean_deficit"),           // of held share, time-weighted over the busy time
	}, nil)
}()

// writeTenants writes the tenants file's one record.
func writeTenants(dir, format string, rows []tenantRow, mem memory.Allocator) (*table, error) {
	tb, err := newTable(dir, "tenants", format, tenantsSchema, mem)
	if err != nil {
		return nil, err
	}
	err = tb.send(func(rb *array.RecordBuilder) {
		b := builders{rb}
		name, jobs := b.str("tenant"), b.i64("jobs")
		opt := func(bl *array.Float64Builder, v float64) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				bl.AppendNull()
			} else {
				bl.Append(v)
			}
		}
		mw, pw, mb := b.f64("mean_wait_s"), b.f64("p95_wait_s"), b.f64("mean_bsld")
		us, sh, tg, df, md := b.f64("usage"), b.f64("usage_share"), b.f64("target_share"), b.f64("deficit"), b.f64("mean_deficit")
		for _, r := range rows {
			name.Append(r.name)
			jobs.Append(r.jobs)
			opt(mw, r.meanWait)
			opt(pw, r.p95Wait)
			opt(mb, r.meanBsld)
			us.Append(r.usage)
			sh.Append(r.usageShare)
			tg.Append(r.target)
			df.Append(r.deficit)
			opt(md, r.meanDef)
		}
	})
	if err != nil {
		return tb, fmt.Errorf("tenants: %w", err)
	}
	return tb, nil
}
