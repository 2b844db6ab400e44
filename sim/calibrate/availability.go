package calibrate

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/report"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/availability"
)

// WriteAvailability writes the three files of an inference into dir:
// node-events.csv, stretches.csv and availability.png, whose axis shows
// dates in loc when the trace's calendar is known.
func WriteAvailability(dir string, a *run.Availability, rule availability.Rule, loc *time.Location) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	comment := fmt.Sprintf("inferred by schedsim availability from %s: at most %g of the processors busy while a fitting job waited, for at least %g h",
		a.Trace, rule.BusyShare, rule.MinDuration.Seconds()/3600)
	if err := metrics.WriteFileAtomic(filepath.Join(dir, "node-events.csv"), func(w io.Writer) error {
		return availability.WriteEvents(w, a.Events, comment)
	}); err != nil {
		return err
	}
	if err := metrics.WriteFileAtomic(filepath.Join(dir, "stretches.csv"), func(w io.Writer) error {
		return availability.WriteStretches(w, a.Stretches, a.Nodes)
	}); err != nil {
		return err
	}
	p, err := availabilityFigure(a, loc)
	if err != nil {
		return err
	}
	return metrics.WriteFileAtomic(filepath.Join(dir, "availability.png"), func(w io.Writer) error {
		wt, err := p.WriterTo(12*vg.Inch, 4*vg.Inch, "png")
		if err != nil {
			return err
		}
		_, err = wt.WriteTo(w)
		return err
	})
}

// availabilityFigure draws the recorded busy processors (6-hour means)
// over days, or over dates in loc when the trace's epoch is known, with
// the inferred stretches shaded by their confidence.
func availabilityFigure(a *run.Availability, loc *time.Location) (*plot.Plot, error) {
	xOf := func(t sim.Time) float64 { return t.Seconds() / 86400 }
	if !a.Epoch.IsZero() {
		xOf = func(t sim.Time) float64 { return float64(a.Epoch.Unix()) + t.Seconds() }
	}
	type step struct {
		at sim.Time
		d  float64
	}
	var steps []step
	for _, j := range a.Jobs {
		s := max(j.Start, j.Submit)
		steps = append(steps, step{s, j.Procs}, step{max(j.End, s), -j.Procs})
	}
	slices.SortFunc(steps, func(x, y step) int {
		switch {
		case x.at < y.at:
			return -1
		case x.at > y.at:
			return 1
		}
		return 0
	})
	const bin = 6 * 3600 * sim.Second
	var pts plotter.XYs
	if len(steps) > 0 {
		busy, k := 0.0, 0
		for t := steps[0].at / bin * bin; t <= steps[len(steps)-1].at; t += bin {
			// the hour's mean: integrate the step function over [t, t+bin)
			area, at := 0.0, t
			for k < len(steps) && steps[k].at < t+bin {
				area += busy * (steps[k].at - at).Seconds()
				busy += steps[k].d
				at = steps[k].at
				k++
			}
			area += busy * (t + bin - at).Seconds()
			pts = append(pts, plotter.XY{X: xOf(t), Y: area / bin.Seconds()})
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: recorded busy processors and %d stretches inferred unavailable", a.Trace, len(a.Stretches))
	p.X.Label.Text = "day of the trace"
	if !a.Epoch.IsZero() {
		p.X.Label.Text = "date (" + run.ZoneLabel(loc) + ")"
		p.X.Tick.Marker = report.CalendarTicker(loc)
	}
	p.Y.Label.Text = "processors"
	p.Y.Min, p.Y.Max = -0.08*a.Capacity, a.Capacity*1.3 // headroom for the legend
	for _, s := range a.Stretches {
		x0, x1 := xOf(s.Start), xOf(s.End)
		top := a.Capacity
		poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: top - s.Unavailable}, {X: x1, Y: top - s.Unavailable}, {X: x1, Y: top}, {X: x0, Y: top}})
		if err != nil {
			return nil, err
		}
		alpha := uint8(60 + 150*s.Confidence)
		poly.Color = color.NRGBA{R: 214, G: 39, B: 40, A: alpha}
		poly.LineStyle.Width = 0
		// A rug under the axis: stretches of a few hours in a year of
		// days are slivers above.
		rug, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: -0.07 * top}, {X: x1, Y: -0.07 * top}, {X: x1, Y: -0.02 * top}, {X: x0, Y: -0.02 * top}})
		if err != nil {
			return nil, err
		}
		rug.Color = color.NRGBA{R: 214, G: 39, B: 40, A: 255}
		rug.LineStyle.Color = rug.Color
		rug.LineStyle.Width = vg.Points(0.5)
		p.Add(poly, rug)
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.Color = color.NRGBA{R: 31, G: 119, B: 180, A: 255}
	line.Width = vg.Points(0.6)
	p.Add(line)
	capLine, err := plotter.NewLine(plotter.XYs{{X: pts[0].X, Y: a.Capacity}, {X: max(pts[len(pts)-1].X, pts[0].X+1), Y: a.Capacity}})
	if err != nil {
		return nil, err
	}
	capLine.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(capLine)
	p.Legend.Add("recorded busy processors (6-hour means)", line)
	p.Legend.Add("capacity", capLine)
	shade, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	shade.Color = color.NRGBA{R: 214, G: 39, B: 40, A: 160}
	shade.LineStyle.Width = 0
	p.Legend.Add("inferred unavailable processors (darker: more confident); bars under 0: where", shade)
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}
