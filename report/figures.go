package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one chart of the report; Name is the file stem of its PNG and
// SVG. ColorBar, when set, is drawn at the right of Plot: the scale of a
// heatmap or of the colour of a scatter's points.
type Figure struct {
	Name     string
	Title    string
	Caption  string
	Plot     *plot.Plot
	ColorBar *plot.Plot
}

// Size of every figure: wide enough for a time axis, small enough that two
// fit on a laptop screen in the page.
const (
	figW = 8 * vg.Inch
	figH = 4.5 * vg.Inch
)

// runColor is run i's colour in every figure: one palette, indexed by the
// run's position on the command line, so a run is recognizable across
// figures and the summary table.
func runColor(i int) color.Color {
	return plotutil.DarkColors[i%len(plotutil.DarkColors)]
}

// Figures draws the report's charts for runs, in page order.
func Figures(runs []*Run) ([]Figure, error) {
	var figs []Figure
	add := func(f Figure, err error) error {
		if err != nil {
			return fmt.Errorf("figure %s: %w", f.Name, err)
		}
		figs = append(figs, f)
		return nil
	}
	if err := add(waitCDF(runs)); err != nil {
		return nil, err
	}
	if err := add(bsldBoxes(runs)); err != nil {
		return nil, err
	}
	tenants, err := tenantFigures(runs)
	if err != nil {
		return nil, fmt.Errorf("figure tenants: %w", err)
	}
	figs = append(figs, tenants...)
	series := []struct {
		name, title, y, caption string
		get                     func(*Run) []float64
		scale                   float64
		agg                     aggregate
		optional                bool // drawn only when some run has a non-zero value
	}{
		{"utilization", "Utilization over time", "utilization of the power resource (%)",
			"Allocated share of the resource that drives power (summary's utilization); bucket means on long runs.",
			func(r *Run) []float64 { return r.Util }, 100, aggMean, false},
		{"queue", "Queue length over time", "queued jobs (jobs)",
			"Released jobs waiting in the queue; bucket maxima on long runs, so peaks show.",
			func(r *Run) []float64 { return r.Queued }, 1, aggMax, false},
		{"power", "Power over time", "power (kW)",
			"Cluster power draw from the node power model; bucket means on long runs.",
			func(r *Run) []float64 { return r.Power }, 1e-3, aggMean, false},
		{"fragmentation", "Fragmentation over time", "fragmented share of the free power resource (%)",
			"Share of the free capacity of the resource that drives power that a typical task of the trace cannot use " +
				"(README, fragmentation); drawn as 0 while nothing is free; bucket means on long runs.",
			func(r *Run) []float64 { return zeroNaN(r.Frag) }, 100, aggMean, true},
		{"nodes_asleep", "Nodes asleep over time", "nodes asleep or switching (nodes)",
			"Nodes powered down (--power-down), switching on or off included; bucket means on long runs.",
			func(r *Run) []float64 { return r.Asleep }, 1, aggMean, true},
	}
	for _, s := range series {
		if s.optional && !anyRun(runs, func(r *Run) bool { return anyNonZero(s.get(r)) }) {
			continue
		}
		f, err := timeSeries(runs, s.name, s.title, s.y, s.get, s.scale, s.agg)
		f.Caption = s.caption
		if err := add(f, err); err != nil {
			return nil, err
		}
	}
	energy, err := energyFigure(runs)
	if err != nil {
		return nil, fmt.Errorf("figure energy: %w", err)
	}
	if energy != nil {
		figs = append(figs, *energy)
	}
	return figs, nil
}

// newPlot sets up the common look: title, axis labels, legend on top.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker = cleanTicks{}
	p.Y.Tick.Marker = cleanTicks{}
	return p
}

// headroom raises the y axis so the legend (top left, one line per run)
// does not sit on the data.
func headroom(p *plot.Plot, nRuns int) {
	if p.Y.Max > p.Y.Min {
		p.Y.Max += (p.Y.Max - p.Y.Min) * 0.09 * float64(nRuns+1)
	}
}

// waitCDF is the empirical CDF of wait per run. The x axis is logarithmic:
// waits span seconds to days, and most are near zero; waits under one
// second are drawn at one second.
func waitCDF(runs []*Run) (Figure, error) {
	f := Figure{Name: "wait_cdf", Title: "Wait-time CDF",
		Caption: "Share of started jobs that waited at most x (log scale; waits under 1 s are drawn at 1 s)."}
	p := newPlot(f.Title, "wait (s, log scale)", "share of started jobs")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, r := range runs {
		xs := make([]float64, len(r.Wait))
		for j, w := range r.Wait {
			xs[j] = math.Max(w, 1)
		}
		qs, ps := cdfPoints(xs)
		if len(qs) == 0 {
			continue
		}
		l, err := plotter.NewLine(xyOf(qs, ps, 1, 1))
		if err != nil {
			return f, err
		}
		l.Color = runColor(i)
		l.Width = vg.Points(1.5)
		l.StepStyle = plotter.PostStep
		p.Add(l)
		p.Legend.Add(r.Label, l)
	}
	// Headroom for the legend as on the other figures: a run whose jobs
	// mostly start at once reaches 1 at the left edge, under it. Ticks and
	// grid lines stop at 1, so the axis does not read as a share past 1.
	p.Y.Min, p.Y.Max = 0, 1
	headroom(p, len(runs))
	p.Y.Tick.Marker = ticksUpTo{max: 1}
	f.Plot = p
	return f, nil
}

// bsldBoxes draws one box plot of bounded slowdown per run, on a log axis
// (bsld ≥ 1 and heavy-tailed). Outliers are thinned to maxOutliers.
func bsldBoxes(runs []*Run) (Figure, error) {
	f := Figure{Name: "bsld_box", Title: "Bounded slowdown per run",
		Caption: "Box: quartiles and median; whiskers: 1.5 × IQR; points: outliers (at most 200 shown per run). Log scale."}
	p := newPlot(f.Title, "run", "bounded slowdown (ratio, log scale)")
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = fmt.Sprintf("run %d", i+1)
		if len(r.BSLD) == 0 {
			continue
		}
		b, err := plotter.NewBoxPlot(vg.Points(40), float64(i), plotter.Values(r.BSLD))
		if err != nil {
			return f, err
		}
		b.Outside = thinOutliers(b.Outside, r.BSLD)
		b.FillColor = lighten(runColor(i))
		b.BoxStyle.Color = runColor(i)
		b.WhiskerStyle.Color = runColor(i)
		b.MedianStyle.Color = runColor(i)
		b.MedianStyle.Width = vg.Points(2)
		b.GlyphStyle.Color = runColor(i)
		b.GlyphStyle.Shape = draw.CircleGlyph{}
		b.GlyphStyle.Radius = vg.Points(1.5)
		p.Add(b)
		p.Legend.Add(fmt.Sprintf("run %d: %s", i+1, r.Label), swatch{b.FillColor, runColor(i)})
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(runs))-0.4
	p.Y.Min = 1
	if p.Y.Max < 10 {
		p.Y.Max = 10
	}
	// Headroom on a log axis is a factor.
	p.Y.Max *= math.Pow(1.6, float64(len(runs)+1))
	f.Plot = p
	return f, nil
}

// timeSeries draws one step line per run of get(run)·scale against hours
// since the run's first event.
func timeSeries(runs []*Run, name, title, ylabel string, get func(*Run) []float64, scale float64, agg aggregate) (Figure, error) {
	f := Figure{Name: name, Title: title}
	p := newPlot(title, "time since the first event (h)", ylabel)
	for i, r := range runs {
		v := get(r)
		if len(v) == 0 || len(r.Time) == 0 {
			continue
		}
		t0 := r.Time[0]
		ts := make([]float64, len(r.Time))
		for j, t := range r.Time {
			ts[j] = (t - t0) / 3600
		}
		xs, ys := stepLine(ts, v, agg)
		l, err := plotter.NewLine(xyOf(xs, ys, 1, scale))
		if err != nil {
			return f, err
		}
		l.Color = runColor(i)
		l.Width = vg.Points(1)
		p.Add(l)
		p.Legend.Add(r.Label, l)
	}
	p.Y.Min = 0
	if p.Y.Max <= 0 {
		p.Y.Max = 1 // all zero (nothing queued): an axis from 0, not −1 to 1
	}
	headroom(p, len(runs))
	f.Plot = p
	return f, nil
}

// ticksUpTo are cleanTicks without those above max: the axis may extend
// past max to make room for the legend.
type ticksUpTo struct{ max float64 }

func (t ticksUpTo) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (cleanTicks{}).Ticks(min, math.Min(max, t.max)) {
		if tk.Value <= t.max {
			out = append(out, tk)
		}
	}
	return out
}

// cleanTicks are gonum's default ticks labelled with the shortest exact
// decimal ("2500", not "2500.00").
type cleanTicks struct{}

func (cleanTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			// Round to 12 significant digits first: a tick computed as
			// 9 × 0.1 is 0.9000000000000001.
			v, _ := strconv.ParseFloat(strconv.FormatFloat(ts[i].Value, 'g', 12, 64), 64)
			ts[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ts
}

func xyOf(xs, ys []float64, sx, sy float64) plotter.XYs {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i].X, pts[i].Y = xs[i]*sx, ys[i]*sy
	}
	return pts
}

// lighten mixes c with white, for box fills that leave the median visible.
func lighten(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8((v>>8)/3 + 255*2/3) }
	return color.NRGBA{mix(r), mix(g), mix(b), 255}
}

// swatch is a legend thumbnail for a box: its fill with its outline.
type swatch struct{ fill, line color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.fill, pts)
	c.StrokeLines(draw.LineStyle{Color: s.line, Width: vg.Points(1)}, append(pts, pts[0]))
}

// zeroNaN copies xs with NaN (a null) as 0.
func zeroNaN(xs []float64) []float64 {
	if xs == nil {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		if !math.IsNaN(x) {
			out[i] = x
		}
	}
	return out
}

func anyRun(runs []*Run, f func(*Run) bool) bool {
	for _, r := range runs {
		if f(r) {
			return true
		}
	}
	return false
}
