package main

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/availability"
)

// recordFacts is what calibrate reads off the recorded schedule before
// replaying: the waits' resolution, the submit span, and the most any
// user had running at once.
type recordFacts struct {
	trace                           string
	resolution                      float64
	firstSubmit, lastSubmit         sim.Time
	maxJobsPerUser, maxProcsPerUser int64
}

// cut is the submit time that leaves the last share h of the span out.
func (f *recordFacts) cut(h float64) float64 {
	span := (f.lastSubmit - f.firstSubmit).Seconds()
	return math.Round(f.firstSubmit.Seconds() + (1-h)*span)
}

// readRecord reads the facts off the record. The caps an "inferred" axis
// value stands for are read off the choosing part only (the jobs
// submitted before the cut of holdout; all with 0): the held-out months
// must not shape the candidates.
func readRecord(base run.Spec, holdout float64) (*recordFacts, error) {
	a, err := run.InferAvailability(&base, availability.DefaultRule)
	if err != nil {
		return nil, err
	}
	f := &recordFacts{trace: a.Trace, firstSubmit: a.Jobs[0].Submit, lastSubmit: a.Jobs[0].Submit}
	var waits []sim.Time
	for _, j := range a.Jobs {
		f.firstSubmit, f.lastSubmit = min(f.firstSubmit, j.Submit), max(f.lastSubmit, j.Submit)
		waits = append(waits, max(j.Start-j.Submit, 0))
	}
	f.resolution = detectResolution(waits)
	choosing := a.Jobs
	if holdout > 0 {
		cut := sim.SecondsToTime(f.cut(holdout))
		choosing = slices.DeleteFunc(slices.Clone(a.Jobs), func(j availability.Job) bool { return j.Submit >= cut })
	}
	f.maxJobsPerUser, f.maxProcsPerUser = userConcurrency(choosing)
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
// cluster (once per cluster) and returns its node-events file.
func (c *calibrator) availabilityFor(spec run.Spec, rule availability.Rule) (string, error) {
	key := strings.Join([]string{spec.Cluster, spec.Platform, spec.SWFModel, fmt.Sprint(spec.ProcsPerNode), fmt.Sprint(rule.BusyShare), fmt.Sprint(rule.MinDuration)}, "|")
	if c.events == nil {
		c.events = map[string]string{}
	}
	if p, ok := c.events[key]; ok {
		return p, nil
	}
	a, err := run.InferAvailability(&spec, rule)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(c.out, fmt.Sprintf("availability-%d", len(c.events)+1))
	if err := writeAvailability(dir, a, rule, displayZone(spec.TimeZone, a.Zone)); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(filepath.Join(dir, "node-events.csv"))
	if err != nil {
		return "", err
	}
	c.events[key] = abs
	return abs, nil
}

// calibrationFigure draws each candidate's objective on the choosing part
// against the reported one (or, in-sample, by rank), the best circled.
// The x axis is each candidate's choice objective (xLabel says which);
// ranked[0] is the chosen one.
func calibrationFigure(path, trace string, ranked []*candidate, parts []string, axes []axis, xLabel string) error {
	p := plot.New()
	var pts plotter.XYs
	for i, cd := range ranked {
		x := cd.score
		y := float64(i + 1)
		if len(parts) > 1 {
			y = partObjective(cd.result[parts[1]])
		}
		if !math.IsNaN(x) && !math.IsNaN(y) {
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
	}
	var names []string
	for i, a := range axes {
		names = append(names, a.key+"="+ranked[0].values[i])
	}
	p.Title.Text = fmt.Sprintf("%s: %d candidate baselines; objective = KS + |ln mean ratio| + |ln p95 ratio| (0: the record)\nchosen (circled): %s",
		trace, len(ranked), strings.Join(names, ", "))
	p.X.Label.Text = xLabel
	if len(parts) > 1 {
		p.Y.Label.Text = "objective on the " + parts[1] + " part (never seen when choosing)"
	} else {
		p.Y.Label.Text = "rank"
	}
	if len(pts) > 0 {
		// From 0 (a replay that matches the record) with headroom at the
		// top for the legend, so that it covers no candidate.
		maxX, maxY := 0.0, 0.0
		for _, pt := range pts {
			maxX, maxY = max(maxX, pt.X), max(maxY, pt.Y)
		}
		p.X.Min, p.X.Max = 0, max(maxX*1.05, 0.1)
		p.Y.Min, p.Y.Max = 0, max(maxY*1.35, 0.1)
		if len(parts) > 1 {
			lim := min(p.X.Max, p.Y.Max)
			diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: lim, Y: lim}})
			if err != nil {
				return err
			}
			diag.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
			diag.Color = color.Gray{Y: 120}
			p.Add(diag)
			p.Legend.Add("held out = fit (above: worse on the months not seen)", diag)
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = color.NRGBA{R: 31, G: 119, B: 180, A: 200}
		p.Add(sc)
		best, err := plotter.NewScatter(pts[:1])
		if err != nil {
			return err
		}
		best.GlyphStyle.Shape = draw.RingGlyph{}
		best.GlyphStyle.Radius = vg.Points(7)
		best.GlyphStyle.Color = color.NRGBA{R: 214, G: 39, B: 40, A: 255}
		p.Add(best)
		p.Legend.Add("candidate", sc)
		p.Legend.Add("chosen by the rule", best)
		p.Legend.Top = true
		p.Legend.Left = true
	}
	return metrics.WriteFileAtomic(path, func(w io.Writer) error {
		wt, err := p.WriterTo(10*vg.Inch, 6*vg.Inch, "png")
		if err != nil {
			return err
		}
		_, err = wt.WriteTo(w)
		return err
	})
}
