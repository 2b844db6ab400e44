package transform

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// Stream is what a replay does to its job stream (see the package doc for
// the order). The zero value changes nothing.
type Stream struct {
	// From and Until bound the window of submit times kept, From
	// included, Until excluded, on the trace's clock; nil leaves that end
	// open.
	From, Until *sim.Time
	// FirstJobs > 0 keeps only the first FirstJobs jobs of the window.
	FirstJobs int
	// LoadFactor divides every inter-arrival gap; 0 or 1 leaves them.
	LoadFactor float64
	// RuntimeFactor multiplies every runtime; 0 or 1 leaves them.
	RuntimeFactor float64
	// Walltime is the walltime model; the zero value keeps the trace's.
	Walltime Walltime
	// Jitter draws random submit offsets and runtime factors.
	Jitter Jitter
	// WarmUp and CoolDown are the spans at the start and the end of the
	// transformed stream whose jobs are replayed but not measured.
	WarmUp, CoolDown sim.Time
}

// Identity reports whether s changes nothing.
func (s *Stream) Identity() bool {
	return s.From == nil && s.Until == nil && s.FirstJobs == 0 && factorIsOne(s.LoadFactor) &&
		factorIsOne(s.RuntimeFactor) && s.Walltime == (Walltime{}) && !s.Jitter.Active() && !s.Measuring()
}

// Measuring reports whether some jobs may be left unmeasured.
func (s *Stream) Measuring() bool { return s.WarmUp > 0 || s.CoolDown > 0 }

func factorIsOne(f float64) bool { return f == 0 || f == 1 }

// Check reports every invalid setting at once.
func (s *Stream) Check() error {
	var errs []error
	if s.From != nil && s.Until != nil && *s.Until <= *s.From {
		errs = append(errs, fmt.Errorf("window: until (%s s) must be after from (%s s)", *s.Until, *s.From))
	}
	if s.FirstJobs < 0 {
		errs = append(errs, fmt.Errorf("first jobs: want ≥ 0 (0: all), got %d", s.FirstJobs))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"load factor", s.LoadFactor}, {"runtime factor", s.RuntimeFactor}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			errs = append(errs, fmt.Errorf("%s: want a number > 0, got %s", f.name, sim.FormatNumber(f.v)))
		}
	}
	if err := s.Walltime.check(); err != nil {
		errs = append(errs, err)
	}
	if err := s.Jitter.check(); err != nil {
		errs = append(errs, err)
	}
	if s.WarmUp < 0 || s.CoolDown < 0 {
		errs = append(errs, errors.New("warm-up and cool-down: want seconds ≥ 0"))
	}
	return errors.Join(errs...)
}

// Source is a sim.Source that transforms the jobs of another. Its Next
// runs on whatever goroutine reads it (a prefetcher's); Measured may be
// called from another one.
type Source struct {
	in sim.Source
	s  Stream

	started bool
	first   sim.Time // the first kept job's traced submit
	kept    int
	ended   bool
	// dropped holds the ids of jobs left out before From: a kept job's
	// dependency on one of them was met before the window and is removed.
	dropped map[string]bool

	prevSubmit sim.Time // the last job's transformed submit
	jitter     *jitterDraws
	measure    *measurement
}

// NewSource wraps in with the transforms of s, which must pass Check.
func NewSource(in sim.Source, s Stream) *Source {
	src := &Source{in: in, s: s, measure: newMeasurement(s.WarmUp, s.CoolDown)}
	if s.Jitter.Active() {
		src.jitter = newJitterDraws(s.Jitter)
	}
	return src
}

// Next implements sim.Source.
func (src *Source) Next() (*sim.Job, error) {
	return src.measure.next(src.transformed)
}

// Measured reports whether a job whose transformed submit time is submit
// counts in the summary: it was not submitted in the warm-up or the
// cool-down. It is only meaningful for jobs Next has returned.
func (src *Source) Measured(submit sim.Time) bool { return src.measure.measured(submit) }

// transformed returns the next job of the window, transformed.
func (src *Source) transformed() (*sim.Job, error) {
	if src.ended {
		return nil, io.EOF
	}
	for {
		j, err := src.in.Next()
		if err != nil {
			return nil, err
		}
		if src.s.From != nil && j.Submit < *src.s.From {
			if src.dropped == nil {
				src.dropped = map[string]bool{}
			}
			src.dropped[j.ID] = true
			continue
		}
		if (src.s.Until != nil && j.Submit >= *src.s.Until) || (src.s.FirstJobs > 0 && src.kept >= src.s.FirstJobs) {
			// Sources are in submit order: nothing later can be kept.
			src.ended = true
			return nil, io.EOF
		}
		src.kept++
		return src.rewrite(j)
	}
}

// rewrite applies the load factor, the runtime factor, jitter and the
// walltime model to a copy of j.
// A time it would take beyond ±1e12 s, or a runtime it would make 0 or
// negative from a positive one, is a *RewriteError naming the setting
// and the job.
func (src *Source) rewrite(j *sim.Job) (*sim.Job, error) {
	s := &src.s
	cp := *j
	if !src.started {
		src.started, src.first = true, j.Submit
		src.prevSubmit = j.Submit
	}
	if len(src.dropped) > 0 && len(j.DependsOn) > 0 {
		cp.DependsOn = slices.DeleteFunc(slices.Clone(j.DependsOn), func(d sim.Dependency) bool { return src.dropped[d.ID] })
		if len(cp.DependsOn) == 0 {
			cp.DependsOn = nil
		}
	}
	if !factorIsOne(s.LoadFactor) {
		cp.Submit = src.first + scale(j.Submit-src.first, 1/s.LoadFactor)
	}
	if !factorIsOne(s.RuntimeFactor) {
		cp.Runtime = scale(j.Runtime, s.RuntimeFactor)
	}
	cp.Walltime = s.Walltime.before(j.Walltime, s.RuntimeFactor)
	if src.jitter != nil {
		cp.Submit = src.jitter.submit(cp.Submit, max(src.prevSubmit, src.first))
		cp.Runtime = src.jitter.runtime(cp.Runtime, cp.Walltime)
	}
	cp.Walltime = s.Walltime.after(cp.Walltime, cp.Runtime)
	if err := checkRewrite(j, &cp, s); err != nil {
		return nil, err
	}
	// The traced system ran another job than this one: its recorded
	// start no longer calibrates anything.
	if cp.Submit != j.Submit || cp.Runtime != j.Runtime {
		cp.Recorded, cp.RecordedStart = false, 0
	}
	src.prevSubmit = cp.Submit
	return &cp, nil
}

// scale multiplies a time by f, to the nearest microsecond; a product
// beyond the range of sim.Time saturates at maxTime + 1, which
// checkRewrite refuses.
func scale(t sim.Time, f float64) sim.Time {
	x := math.Round(float64(t) * f)
	switch {
	case math.IsNaN(x) || x > float64(maxTime):
		return maxTime + 1
	case x < -float64(maxTime):
		return -maxTime - 1
	}
	return sim.Time(x)
}
