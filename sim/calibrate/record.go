package calibrate

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/availability"
)

// Record is what calibrate reads off the recorded schedule before
// replaying: the waits' resolution, the submit span, and the most any
// user had running at once in the choosing part.
type Record struct {
	Trace                           string
	Resolution                      float64 // s; 0: waits recorded below a second
	firstSubmit, lastSubmit         sim.Time
	MaxJobsPerUser, MaxProcsPerUser int64
}

// cut is the submit time that leaves the last share h of the span out.
func (f *Record) cut(h float64) float64 {
	span := (f.lastSubmit - f.firstSubmit).Seconds()
	return math.Round(f.firstSubmit.Seconds() + (1-h)*span)
}

// readRecord reads the facts off the record. The caps an "inferred" axis
// value stands for are read off the choosing part only (the jobs
// submitted before the cut of holdout; all with 0): the held-out months
// must not shape the candidates.
func readRecord(base run.Spec, holdout float64) (*Record, error) {
	a, err := run.ReadRecorded(&base)
	if err != nil {
		return nil, err
	}
	f := &Record{Trace: a.Trace, firstSubmit: a.Jobs[0].Submit, lastSubmit: a.Jobs[0].Submit}
	var waits []sim.Time
	for _, j := range a.Jobs {
		f.firstSubmit, f.lastSubmit = min(f.firstSubmit, j.Submit), max(f.lastSubmit, j.Submit)
		waits = append(waits, max(j.Start-j.Submit, 0))
	}
	f.Resolution = detectResolution(waits)
	choosing := a.Jobs
	if holdout > 0 {
		cut := sim.SecondsToTime(f.cut(holdout))
		choosing = slices.DeleteFunc(slices.Clone(a.Jobs), func(j availability.Job) bool { return j.Submit >= cut })
	}
	f.MaxJobsPerUser, f.MaxProcsPerUser = userConcurrency(choosing)
	return f, nil
}

// resolutionCandidates are the resolutions detectResolution tries, coarsest first.
var resolutionCandidates = []float64{3600, 600, 300, 60, 30, 10, 5, 2, 1}

// detectResolution is the coarsest candidate that divides at least 99 %
// of the nonzero recorded waits (at least 50 of them), in seconds; 0 when
// none does (waits recorded below a second).
func detectResolution(waits []sim.Time) float64 {
	var nonzero []sim.Time
	for _, w := range waits {
		if w > 0 {
			nonzero = append(nonzero, w)
		}
	}
	if len(nonzero) < 50 {
		return 0
	}
	for _, r := range resolutionCandidates {
		step := sim.SecondsToTime(r)
		n := 0
		for _, w := range nonzero {
			if w%step == 0 {
				n++
			}
		}
		if float64(n) >= 0.99*float64(len(nonzero)) {
			return r
		}
	}
	return 0
}

// userConcurrency is the most jobs, and processors, any one user had
// running at once in the record: caps the history never exceeded.
func userConcurrency(jobs []availability.Job) (maxJobs, maxProcs int64) {
	type ev struct {
		at   sim.Time
		user string
		d    int64
		p    float64
	}
	var evs []ev
	for _, j := range jobs {
		if j.User == "" {
			continue
		}
		s := max(j.Start, j.Submit)
		evs = append(evs, ev{s, j.User, 1, j.Procs}, ev{max(j.End, s), j.User, -1, -j.Procs})
	}
	slices.SortStableFunc(evs, func(a, b ev) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.d, b.d)) // ends first
	})
	jobsOf, procsOf := map[string]int64{}, map[string]float64{}
	for _, e := range evs {
		jobsOf[e.user] += e.d
		procsOf[e.user] += e.p
		maxJobs = max(maxJobs, jobsOf[e.user])
		maxProcs = max(maxProcs, int64(math.Ceil(procsOf[e.user]-1e-9)))
	}
	return maxJobs, maxProcs
}

// availabilityFor infers the availability of the record on spec's
// cluster (once per cluster and rule) and returns its node-events file.
// With a holdout it reads the choosing part's record only.
func (c *Calibration) availabilityFor(spec run.Spec, rule availability.Rule) (string, error) {
	key := strings.Join([]string{spec.Cluster, spec.Platform, spec.SWFModel, fmt.Sprint(spec.ProcsPerNode), fmt.Sprint(rule.BusyShare), fmt.Sprint(rule.MinDuration)}, "|")
	if c.events == nil {
		c.events = map[string]string{}
	}
	if p, ok := c.events[key]; ok {
		return p, nil
	}
	a, err := run.ReadRecorded(&spec)
	if err != nil {
		return "", err
	}
	cut := sim.Forever
	if c.Holdout > 0 {
		// The held-out months must not shape the candidates: what they
		// record of the machine's availability stays unseen.
		cut = sim.SecondsToTime(c.Record.cut(c.Holdout))
	}
	a.Infer(rule, cut)
	dir := filepath.Join(c.Out, fmt.Sprintf("availability-%d", len(c.events)+1))
	if err := WriteAvailability(dir, a, rule, run.DisplayZone(spec.TimeZone, a.Zone)); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(filepath.Join(dir, "node-events.csv"))
	if err != nil {
		return "", err
	}
	c.events[key] = abs
	return abs, nil
}
