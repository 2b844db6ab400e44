package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/internal/words"
)

// Figure is one chart of the report; Name is the file stem of its PNG and
// SVG. ColorBar, when set, is drawn at the right of Plot: the scale of a
// heatmap or of the colour of a scatter's points. Legend, when set, is
// drawn right of the plot, outside its data. Panels, when set, replace
// Plot: a grid of small plots (rows of columns, nil for an empty cell)
// under the figure's Title.
type Figure struct {
	Name     string
	Title    string
	Caption  string
	Plot     *plot.Plot
	ColorBar *plot.Plot
	Legend   *plot.Legend
	Panels   [][]*plot.Plot
}

// runColor is run i's colour in every figure: one palette, indexed by the
// run's position on the command line, so a run is recognizable across
// figures and the summary table.
func runColor(i int) color.Color {
	return okabeIto[i%len(okabeIto)]
}

// Figures draws the report's charts for runs, in page order.
func Figures(runs []*Run, opts Options) ([]Figure, error) {
	if opts.TimeZone != nil {
		for _, r := range runs {
			r.Loc = opts.TimeZone
		}
	}
	lt := reduceLabels(runs)
	var figs []Figure
	add := func(f Figure, err error) error {
		if err != nil {
			return fmt.Errorf("figure %s: %w", f.Name, err)
		}
		figs = append(figs, f)
		return nil
	}
	if err := add(waitCDF(runs, lt)); err != nil {
		return nil, err
	}
	if err := add(bsldBoxes(runs, lt)); err != nil {
		return nil, err
	}
	calib, ok, err := calibrationFigure(runs, lt)
	if err != nil {
		return nil, fmt.Errorf("figure calibration: %w", err)
	}
	if ok {
		figs = append(figs, calib)
	}
	tenants, err := tenantFigures(runs, lt, opts.Size)
	if err != nil {
		return nil, fmt.Errorf("figure tenants: %w", err)
	}
	figs = append(figs, tenants...)
	for _, s := range timeSeriesSpecs {
		if s.optional && !anyRun(runs, func(r *Run) bool { return anyNonZero(s.get(r)) }) {
			continue
		}
		if err := add(timeSeries(runs, lt, s)); err != nil {
			return nil, err
		}
	}
	energy, err := energyFigure(runs, lt)
	if err != nil {
		return nil, fmt.Errorf("figure energy: %w", err)
	}
	if energy != nil {
		figs = append(figs, *energy)
	}
	gantts, err := ganttFigures(runs, lt, opts)
	if err != nil {
		return nil, err
	}
	return append(figs, gantts...), nil
}

// seriesSpec is one time-series figure: what it reads of a run, the
// scale to its unit and how its axis reads.
type seriesSpec struct {
	name, title, y, caption string
	get                     func(*Run) []float64
	scale                   float64
	percent                 bool // y is a share in %, 0 to 100
	optional                bool // drawn only when some run has a non-zero value
	resource                bool // y's %r is the utilization column's resource
}

var timeSeriesSpecs = []seriesSpec{
	{name: "utilization", title: "Utilization over time", y: "allocated %r",
		caption: "Allocated share of the resource that drives power (summary's utilization).",
		get:     func(r *Run) []float64 { return r.Util }, scale: 100, percent: true, resource: true},
	{name: "queue", title: "Queue length over time", y: "queued jobs (jobs)",
		caption: "Released jobs waiting in the queue.",
		get:     func(r *Run) []float64 { return r.Queued }, scale: 1},
	{name: "power", title: "Power over time", y: "power (kW)",
		caption: "Cluster power draw from the node power model.",
		get:     func(r *Run) []float64 { return r.Power }, scale: 1e-3, optional: true}, // no power model: no figure
	{name: "fragmentation", title: "Fragmentation over time", y: "fragmented share of free %r", resource: true,
		caption: "Share of the free capacity of the resource that drives power that a typical task of the trace " +
			"cannot use; counted as 0 while nothing is free.",
		get: func(r *Run) []float64 { return zeroNaN(r.Frag) }, scale: 100, percent: true, optional: true},
	{name: "nodes_asleep", title: "Nodes asleep over time", y: "nodes asleep or switching (nodes)",
		caption: "Nodes powered down (--power-down), switching on or off included.",
		get:     func(r *Run) []float64 { return r.Asleep }, scale: 1, optional: true},
}

// newPlot sets up the common look: title, axis labels, grid.
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

// runsPlot is newPlot for a figure comparing runs: the title gets a
// second line with what the runs share (trace, cluster, settings).
func runsPlot(title, x, y string, lt legendText) *plot.Plot {
	if sub := lt.Subtitle(); sub != "" {
		title += "\n" + sub
	}
	p := newPlot(title, x, y)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	return p
}

// runsLegend is a legend for the runs, drawn outside the data (see
// Figure.Legend); nil for a single run, which the title names.
func runsLegend(runs []*Run) *plot.Legend {
	if len(runs) < 2 {
		return nil
	}
	return outsideLegend()
}

// outsideLegend is an empty legend in the report's style, for
// Figure.Legend.
func outsideLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(9)
	l.ThumbnailWidth = vg.Points(14)
	l.Padding = vg.Points(2)
	return &l
}

// waitCDF is the empirical CDF of wait per run. The x axis is logarithmic:
// waits span seconds to days, and most are near zero; waits under one
// second are drawn at one second.
func waitCDF(runs []*Run, lt legendText) (Figure, error) {
	f := Figure{Name: "wait_cdf", Title: "Wait-time CDF",
		Caption: "Share of started jobs that waited at most x (log scale; waits under 1 s are drawn at 1 s)."}
	p := runsPlot(f.Title, "wait (log scale)", "share of started jobs", lt)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = durationTicks{}
	p.Y.Tick.Marker = percentTicks{scale: 100}
	f.Legend = runsLegend(runs)
	longest := 1.0
	for i, r := range runs {
		xs := make([]float64, len(r.Wait))
		for j, w := range r.Wait {
			xs[j] = math.Max(w, 1)
			longest = math.Max(longest, xs[j])
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
		if f.Legend != nil {
			f.Legend.Add(lt.Entries[i], l)
		}
	}
	// The axis starts at 1 s, where shorter waits are drawn, and spans at
	// least a decade: when no job waited a second, gonum would pad a
	// one-value range down to 0, which a log axis cannot show.
	p.X.Min, p.X.Max = 1, math.Max(longest, 10)
	p.Y.Min, p.Y.Max = 0, 1
	f.Plot = p
	return f, nil
}

// bsldBoxes draws one box plot of bounded slowdown per run, on a log axis
// (bsld ≥ 1 and heavy-tailed), each named on the x axis by what sets it
// apart. Outliers are thinned to maxOutliers.
func bsldBoxes(runs []*Run, lt legendText) (Figure, error) {
	f := Figure{Name: "bsld_box", Title: "Bounded slowdown per run",
		Caption: "Box: quartiles and median; whiskers: 1.5 × IQR; points: outliers (at most 200 shown per run). Log scale."}
	xlabel := "run"
	if len(lt.Varying) > 0 {
		xlabel = strings.Join(lt.Varying, " · ")
	}
	p := runsPlot(f.Title, xlabel, "bounded slowdown (ratio, log scale)", lt)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, r := range runs {
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
	}
	p.NominalX(lt.Entries...)
	p.X.Min, p.X.Max = -0.6, float64(len(runs))-0.4
	p.Y.Min = 1
	if p.Y.Max < 10 {
		p.Y.Max = 10
	}
	f.Plot = p
	return f, nil
}

// maxSeriesPanels is the most runs a time series draws as small
// multiples, one panel each with its band; more runs share one panel,
// lines only (bands of many runs overlap into mud). Four panels or more
// stacked in a 720-pixel figure leave each too short to read.
const maxSeriesPanels = 3

// timeSeries draws, per run, the bucket means of a time series as a line
// and the range of the finer means within each bucket as a light band,
// every run in buckets of one width chosen from the longest span. Two or
// three runs are small multiples: one panel per run, one above the other
// on the same axes, so that no band hides another; more share one panel.
func timeSeries(runs []*Run, lt legendText, s seriesSpec) (Figure, error) {
	f := Figure{Name: s.name, Title: s.title}
	span, epoch, loc := runsSpan(runs)
	bucket, fine := chooseBucket(span)
	ax := newTimeAxis(span, epoch, loc)
	ylabel := s.y
	if s.resource {
		ylabel = strings.ReplaceAll(ylabel, "%r", runsResource(runs))
	}
	if s.percent {
		ylabel += " (%)"
	}
	panels := len(runs) > 1 && len(runs) <= maxSeriesPanels
	newPanel := func(title string) *plot.Plot {
		var p *plot.Plot
		if title == "" {
			p = runsPlot(s.title, "", ylabel, lt)
		} else {
			// A panel is short: its axis names the unit, the figure's
			// title the quantity.
			p = newPlot(title, "", unitOf(ylabel))
		}
		ax.apply(p)
		if s.percent {
			p.Y.Tick.Marker = percentTicks{scale: 1}
		}
		return p
	}
	lineName, bandName := words.Adverb(bucket.Name)+" mean", "range of "+words.Adverb(fine.Name)+" means"
	leg := outsideLegend()
	var plots []*plot.Plot
	var single *plot.Plot
	if !panels {
		single = newPanel("")
	}
	var lines []plot.Plotter
	ymax := 0.0
	for i, r := range runs {
		v := s.get(r)
		if len(v) == 0 || len(r.Time) == 0 {
			continue
		}
		res := resample(r.Time, v, bucket, fine)
		if len(res.Start) == 0 {
			continue
		}
		t0, tn := r.Time[0], r.Time[len(r.Time)-1]
		mid := func(k int) float64 {
			end := math.Min(res.Start[k]+bucket.Seconds, tn-t0)
			return ax.x(t0+(res.Start[k]+end)/2, t0)
		}
		line := make(plotter.XYs, len(res.Start))
		band := make(plotter.XYs, 0, 2*len(res.Start))
		for k := range res.Start {
			line[k] = plotter.XY{X: mid(k), Y: res.Mean[k] * s.scale}
			band = append(band, plotter.XY{X: mid(k), Y: res.Lo[k] * s.scale})
			ymax = math.Max(ymax, res.Hi[k]*s.scale)
		}
		for k := len(res.Start) - 1; k >= 0; k-- {
			band = append(band, plotter.XY{X: mid(k), Y: res.Hi[k] * s.scale})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return f, err
		}
		poly.Color = translucent(runColor(i), 0x40)
		poly.LineStyle.Width = 0
		l, err := plotter.NewLine(line)
		if err != nil {
			return f, err
		}
		l.Color = runColor(i)
		l.Width = vg.Points(1.5)
		switch {
		case panels:
			p := newPanel(lt.Entries[i])
			p.Add(poly, l)
			plots = append(plots, p)
			if i == 0 {
				leg.Add(lineName, l)
				leg.Add(bandName, poly)
			}
		case len(runs) == 1:
			single.Add(poly)
			lines = append(lines, l)
			leg.Add(lineName, l)
			leg.Add(bandName, poly)
		default:
			lines = append(lines, l) // many runs: lines only, one colour each
			leg.Add(lt.Entries[i], l)
		}
	}
	limits := func(p *plot.Plot) {
		p.Y.Min = 0
		switch {
		case s.percent:
			p.Y.Max = 100
		case ymax <= 0:
			p.Y.Max = 1 // all zero (nothing queued): an axis from 0, not −1 to 1
		default:
			p.Y.Max = ymax * 1.05
		}
	}
	f.Legend = leg
	what := fmt.Sprintf(" Line: the mean of each %s; band: the lowest to the highest %s mean within it.",
		bucket.Name, words.Adverb(fine.Name))
	switch {
	case panels:
		f.Title = runsPlot(s.title+": "+ylabel, "", "", lt).Title.Text
		for k, p := range plots {
			limits(p)
			if k < len(plots)-1 {
				p.X.Label.Text = "" // the bottom panel names and labels the shared axis
				p.X.Tick.Marker = unlabelled{p.X.Tick.Marker}
			}
			f.Panels = append(f.Panels, []*plot.Plot{p})
		}
		if len(plots) == 0 {
			f.Panels, f.Plot = nil, newPanel("")
		}
		what += " One panel per run, on the same axes."
	case len(runs) > 1:
		single.Add(lines...)
		limits(single)
		f.Plot = single
		what = fmt.Sprintf(" Line: the mean of each %s, one per run (%d runs: no bands, which would hide each other).",
			bucket.Name, len(runs))
	default:
		single.Add(lines...)
		limits(single)
		f.Plot = single
	}
	f.Caption = s.caption + what
	return f, nil
}

// runsResource is the resource the runs' utilization columns measure
// (utilization_cpu: cpu), or "the power resource" when they differ.
func runsResource(runs []*Run) string {
	name := ""
	for _, r := range runs {
		n := strings.TrimPrefix(r.UtilName, "utilization_")
		if r.UtilName == "" {
			continue
		}
		if name != "" && n != name {
			return "the power resource"
		}
		name = n
	}
	if name == "" {
		return "the power resource"
	}
	return name
}

// runsSpan is the longest time span of the runs' time series, and the
// first epoch any run knows with that run's time zone.
func runsSpan(runs []*Run) (float64, *time.Time, *time.Location) {
	span := 0.0
	var epoch *time.Time
	var loc *time.Location
	for _, r := range runs {
		if len(r.Time) > 0 {
			span = math.Max(span, r.Time[len(r.Time)-1]-r.Time[0])
		}
		if epoch == nil {
			epoch, loc = r.Epoch, r.Loc
		}
	}
	return span, epoch, loc
}

// translucent is c with alpha a, for bands that let the lines and the
// other runs' bands show through.
func translucent(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
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
			ts[i].Label = words.Thousands(strconv.FormatFloat(v, 'f', -1, 64))
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

// unlabelled keeps a marker's ticks without their labels: the upper
// panels of small multiples, whose x axis the bottom panel labels.
type unlabelled struct{ plot.Ticker }

func (u unlabelled) Ticks(min, max float64) []plot.Tick {
	ts := u.Ticker.Ticks(min, max)
	for i := range ts {
		ts[i].Label = ""
	}
	return ts
}

// unitOf is the unit of an axis label, "allocated cpu (%)" → "%", or the
// label itself when it names none.
func unitOf(label string) string {
	i := strings.LastIndex(label, "(")
	if i < 0 || !strings.HasSuffix(label, ")") {
		return label
	}
	return label[i+1 : len(label)-1]
}
