package report

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
)

// TraceStats accumulates what `schedsim inspect` reports about a trace,
// one job at a time, in memory that does not grow with the trace: counts
// and sums are exact; distributions keep every value up to sampleCap jobs
// and a uniform sample of sampleCap beyond (quantiles are then estimates,
// which the summary says); arrivals are counted in time bins whose width
// doubles whenever they would exceed maxBins.
type TraceStats struct {
	Jobs, Tasks   int64
	First, Last   sim.Time // submit times of the first and last job
	LastEnd       sim.Time // latest submit + runtime
	WalltimeKnown int64
	Serial, Pow2  int64 // jobs of 1 task; of 2, 4, 8, … tasks
	// SizeClasses counts jobs by ⌈log2 tasks⌉: 1 task, 2, 3–4, 5–8, …
	SizeClasses []int64
	WithDeps    int64 // jobs with depends_on
	WithTraits  int64 // jobs with placement traits
	// HourOfDay and DayOfWeek (Monday first) count submits in the
	// trace's local time when its calendar is known (SetCalendar), else
	// from time 0 (and DayOfWeek stays empty).
	HourOfDay      [24]int64
	DayOfWeek      [7]int64
	Epoch          *time.Time     // the trace's time 0; nil when unknown
	Loc            *time.Location // the zone of hours and days; UTC when unset
	Runtime        *Sample        // seconds
	Walltime       *Sample        // seconds, jobs that give one
	Size           *Sample        // tasks per job
	Resources      []*ResourceStats
	Arrivals       *TimeBins
	users          map[string]int64
	usersOverflown bool
	resIndex       map[string]int
}

// ResourceStats is one resource's requests: the jobs that request it, the
// per-task amount, and the work Σ tasks · amount · runtime.
type ResourceStats struct {
	Name    string
	Jobs    int64
	PerTask *Sample // units of the resource
	Work    float64 // unit·seconds
}

// sampleCap is how many values a Sample keeps.
const sampleCap = 1 << 20

// maxUsers bounds the distinct users counted; past it the count is a
// lower bound.
const maxUsers = 1 << 20

// NewTraceStats returns empty statistics.
func NewTraceStats() *TraceStats {
	return &TraceStats{
		Runtime:  newSample(1),
		Walltime: newSample(2),
		Size:     newSample(3),
		Arrivals: newTimeBins(sim.Second * 3600),
		users:    map[string]int64{},
		resIndex: map[string]int{},
	}
}

// SetCalendar says when the trace's time 0 was and in which zone its
// hours and days are counted; call it before Add.
func (s *TraceStats) SetCalendar(epoch time.Time, loc *time.Location) {
	if epoch.IsZero() {
		return
	}
	if loc == nil {
		loc = time.UTC
	}
	s.Epoch, s.Loc = &epoch, loc
}

// At is trace time t as a calendar time in the stats' zone; ok is false
// when the calendar is unknown.
func (s *TraceStats) At(t sim.Time) (time.Time, bool) {
	if s.Epoch == nil {
		return time.Time{}, false
	}
	return s.Epoch.Add(time.Duration(t / sim.Microsecond * 1000)).In(s.Loc), true
}

// Add counts one job. Jobs come in submit order (a sim.Source's order).
func (s *TraceStats) Add(j *sim.Job) {
	if s.Jobs == 0 {
		s.First = j.Submit
		s.Arrivals.origin = j.Submit
	}
	s.Jobs++
	s.Tasks += int64(j.Tasks)
	s.Last = j.Submit
	s.LastEnd = max(s.LastEnd, j.Submit+j.Runtime)
	s.Runtime.add(j.Runtime.Seconds())
	if j.Walltime != sim.NoWalltime {
		s.WalltimeKnown++
		s.Walltime.add(j.Walltime.Seconds())
	}
	s.Size.add(float64(j.Tasks))
	c := bits.Len(uint(j.Tasks - 1))
	for len(s.SizeClasses) <= c {
		s.SizeClasses = append(s.SizeClasses, 0)
	}
	s.SizeClasses[c]++
	switch {
	case j.Tasks == 1:
		s.Serial++
	case j.Tasks&(j.Tasks-1) == 0:
		s.Pow2++
	}
	if len(j.DependsOn) > 0 {
		s.WithDeps++
	}
	if j.Traits != nil {
		s.WithTraits++
	}
	if at, ok := s.At(j.Submit); ok {
		s.HourOfDay[at.Hour()]++
		s.DayOfWeek[(int(at.Weekday())+6)%7]++
	} else {
		s.HourOfDay[(j.Submit/(3600*sim.Second))%24]++
	}
	s.Arrivals.add(j.Submit)
	for _, q := range j.Request {
		r := s.resource(q.Resource)
		r.Jobs++
		amount := q.Amount.Float()
		r.PerTask.add(amount)
		r.Work += float64(j.Tasks) * amount * j.Runtime.Seconds()
	}
	if n, ok := s.users[j.User]; ok || len(s.users) < maxUsers {
		s.users[j.User] = n + 1
	} else {
		s.usersOverflown = true
	}
}

func (s *TraceStats) resource(name string) *ResourceStats {
	i, ok := s.resIndex[name]
	if !ok {
		i = len(s.Resources)
		s.resIndex[name] = i
		s.Resources = append(s.Resources, &ResourceStats{Name: name, PerTask: newSample(uint64(16 + i))})
	}
	return s.Resources[i]
}

// Span is the arrival span, last submit − first submit.
func (s *TraceStats) Span() sim.Time { return s.Last - s.First }

// Users returns the number of distinct users (a lower bound when more
// than maxUsers), and the heaviest user with its job count (ties to the
// smallest name).
func (s *TraceStats) Users() (n int, atLeast bool, top string, topJobs int64) {
	for u, c := range s.users {
		if c > topJobs || (c == topJobs && u < top) {
			top, topJobs = u, c
		}
	}
	return len(s.users), s.usersOverflown, top, topJobs
}

// OfferedLoad is the work the trace asks of a resource over what the
// cluster can give during the arrival span: Σ tasks · amount · runtime ÷
// (capacity · span). It is 0 with ok false when the span or the capacity
// is 0.
func (s *TraceStats) OfferedLoad(resource string, capacity float64) (load float64, ok bool) {
	span := s.Span().Seconds()
	if span <= 0 || capacity <= 0 {
		return 0, false
	}
	i, found := s.resIndex[resource]
	if !found {
		return 0, true
	}
	return s.Resources[i].Work / (capacity * span), true
}

// Sample keeps every value up to sampleCap, then a uniform reservoir
// sample of sampleCap values (Vitter's algorithm R, seeded, so the same
// trace gives the same sample). Count, sum, min and max stay exact.
type Sample struct {
	values   []float64
	sorted   bool
	Count    int64
	Sum      float64
	Min, Max float64
	rng      *rand.Rand
}

func newSample(stream uint64) *Sample {
	return &Sample{rng: rand.New(rand.NewPCG(0, stream))}
}

func (s *Sample) add(x float64) {
	if s.Count == 0 || x < s.Min {
		s.Min = x
	}
	if s.Count == 0 || x > s.Max {
		s.Max = x
	}
	s.Count++
	s.Sum += x
	s.sorted = false
	if len(s.values) < sampleCap {
		s.values = append(s.values, x)
		return
	}
	if k := s.rng.Int64N(s.Count); k < sampleCap {
		s.values[k] = x
	}
}

// Exact reports whether the quantiles are over every value.
func (s *Sample) Exact() bool { return s.Count <= sampleCap }

// Mean is the exact mean; 0 for no values.
func (s *Sample) Mean() float64 {
	if s.Count == 0 {
		return 0
	}
	return s.Sum / float64(s.Count)
}

// Quantile is numpy's default (type 7) quantile of the kept values; the
// exact minimum and maximum at p = 0 and 1. NaN for no values.
func (s *Sample) Quantile(p float64) float64 {
	switch {
	case s.Count == 0:
		return math.NaN()
	case p <= 0:
		return s.Min
	case p >= 1:
		return s.Max
	}
	return metrics.Quantile(s.Values(), p)
}

// Values returns the kept values, sorted.
func (s *Sample) Values() []float64 {
	if !s.sorted {
		sort.Float64s(s.values)
		s.sorted = true
	}
	return s.values
}

// TimeBins counts arrivals in bins of Width from the first submit. When a
// submit falls past maxBins bins, pairs of bins merge and Width doubles,
// so a trace of any span holds at most maxBins counts.
type TimeBins struct {
	Width  sim.Time
	Counts []int64
	origin sim.Time
}

// maxBins bounds the arrival bins: a year of hours fits without merging.
const maxBins = 16384

func newTimeBins(width sim.Time) *TimeBins { return &TimeBins{Width: width} }

func (b *TimeBins) add(t sim.Time) {
	i := int64((t - b.origin) / b.Width)
	for i >= maxBins {
		for k := 0; k < len(b.Counts); k += 2 {
			c := b.Counts[k]
			if k+1 < len(b.Counts) {
				c += b.Counts[k+1]
			}
			b.Counts[k/2] = c
		}
		b.Counts = b.Counts[:(len(b.Counts)+1)/2]
		b.Width *= 2
		i = int64((t - b.origin) / b.Width)
	}
	if int(i) >= len(b.Counts) {
		b.Counts = append(b.Counts, make([]int64, int(i)+1-len(b.Counts))...)
	}
	b.Counts[i]++
}

// Peak returns the busiest bin: its index and count (the first on ties).
func (b *TimeBins) Peak() (int, int64) {
	if len(b.Counts) == 0 {
		return 0, 0
	}
	best := slices.Max(b.Counts)
	return slices.Index(b.Counts, best), best
}
