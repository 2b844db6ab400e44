package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Colour-bar geometry: its strip takes colorBarW at the right of the
// figure, and its ends line up with the main plot's data area (below the
// title, above the x axis), measured on the figures as drawn.
const (
	colorBarW      = 1.0 * vg.Inch
	colorBarGap    = 0.15 * vg.Inch
	colorBarTop    = 0.2 * vg.Inch
	colorBarBottom = 0.45 * vg.Inch
)

// render draws the figure as PNG or SVG bytes at the default size.
func (f Figure) render(ext string) ([]byte, error) { return f.renderAt(ext, DefaultSize) }

// renderAt draws the figure as PNG or SVG bytes at size. A panic inside
// gonum/plot (an axis it cannot draw, say) becomes an error, which Write
// names with the figure, rather than a crash with a partial report.
func (f Figure) renderAt(ext string, size Size) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing: %v", r)
		}
	}()
	size = size.orDefault()
	w, h := size.inches()
	var c vg.CanvasWriterTo
	switch ext {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(size.DPI))}
	case "svg":
		c = vgsvg.New(w, h)
	default:
		return nil, fmt.Errorf("unsupported format %q", ext)
	}
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// draw lays the figure out on dc: the legend and the colour bar in strips
// at the right, outside the data, and the plot (or the grid of panels
// under the figure's title) in the rest, every text in the house style
// (style.go): titles wrapped to the width, tick labels that do not
// overlap.
func (f Figure) draw(dc draw.Canvas) {
	// The style changes copies: a figure renders the same every time.
	f.Plot, f.ColorBar = copyPlot(f.Plot), copyPlot(f.ColorBar)
	if f.Legend != nil {
		l := *f.Legend
		f.Legend = &l
	}
	if f.Panels != nil {
		panels := make([][]*plot.Plot, len(f.Panels))
		for r, row := range f.Panels {
			for _, p := range row {
				panels[r] = append(panels[r], copyPlot(p))
			}
		}
		f.Panels = panels
	}
	right := vg.Length(0)
	if f.ColorBar != nil {
		right = colorBarW + colorBarGap
		fullW := dc.Max.X - dc.Min.X
		styleText(f.ColorBar)
		f.ColorBar.Draw(draw.Crop(dc, fullW-colorBarW, 0, colorBarBottom, -colorBarTop))
	}
	if f.Legend != nil {
		f.Legend.TextStyle.Font.Size = vg.Points(textSize)
		lw := f.Legend.Rectangle(dc).Max.X - f.Legend.Rectangle(dc).Min.X
		strip := draw.Crop(dc, dc.Max.X-dc.Min.X-right-lw-legendPad, -right, 0, -legendTop)
		f.Legend.Top, f.Legend.Left = true, true
		f.Legend.Draw(strip)
		right += lw + 2*legendPad
	}
	area := draw.Crop(dc, 0, -right, 0, 0)
	if f.Panels == nil {
		styleText(f.Plot)
		fitTitle(f.Plot, area)
		area = logAxisLabel(f.Plot, area)
		fitTicks(f.Plot, area)
		f.Plot.Draw(area)
		return
	}
	title := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, vg.Points(titleSize)),
		Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YTop}
	heading := wrapText(f.Title, title, area.Max.X-area.Min.X)
	area.FillText(title, vg.Point{X: (area.Min.X + area.Max.X) / 2, Y: area.Max.Y}, heading)
	top := title.Height(heading) + vg.Points(4)
	for _, row := range f.Panels {
		for _, p := range row {
			if p != nil {
				styleText(p)
				p.Title.TextStyle.Font.Size = vg.Points(textSize)
			}
		}
	}
	tiles := draw.Tiles{Rows: len(f.Panels), Cols: len(f.Panels[0]), PadTop: top, PadX: vg.Points(6), PadY: vg.Points(6)}
	cs := plot.Align(f.Panels, tiles, area)
	for r, row := range f.Panels {
		for c, p := range row {
			if p != nil {
				fitTitle(p, cs[r][c])
				fitTicks(p, cs[r][c])
				p.Draw(cs[r][c])
			}
		}
	}
}

// copyPlot is a copy of p whose texts, axes and tick markers can change
// without changing p; nil for nil.
func copyPlot(p *plot.Plot) *plot.Plot {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// logAxisLabel draws the y label of a plot with a log y axis itself, at
// the left of area, centred on the data, and returns the rest of area:
// gonum centres it on the arithmetic middle of the range, which on a log
// axis is near the top, and shrinks the data area to fit it there.
func logAxisLabel(p *plot.Plot, area draw.Canvas) draw.Canvas {
	if _, log := p.Y.Scale.(plot.LogScale); !log || p.Y.Label.Text == "" {
		return area
	}
	st := p.Y.Label.TextStyle
	st.Rotation = math.Pi / 2
	st.XAlign, st.YAlign = draw.XCenter, draw.YTop
	label := p.Y.Label.Text
	h := p.Y.Label.TextStyle.Height(label)
	p.Y.Label.Text = ""
	rest := draw.Crop(area, h+p.Y.Label.Padding, 0, 0, 0)
	dc := p.DataCanvas(rest)
	area.FillText(st, vg.Point{X: area.Min.X, Y: (dc.Min.Y + dc.Max.Y) / 2}, label)
	return rest
}

// The legend's strip: a gap on each side, and its top level with the
// plot's data area rather than the title.
const (
	legendPad = 0.1 * vg.Inch
	legendTop = 0.3 * vg.Inch
)

// colorBarPlot is the vertical scale of a colour map, labelled with the
// quantity and its unit.
func colorBarPlot(cb plot.Plotter, label string) *plot.Plot {
	p := plot.New()
	p.Add(cb)
	p.HideX()
	p.Y.Label.Text = label
	p.Y.Tick.Marker = cleanTicks{}
	p.X.Padding, p.Y.Padding = 0, 0
	return p
}

// sequentialMap is the colour scale of heatmaps: ColorBrewer's YlGnBu,
// light yellow to dark blue, dark where the metric is better: at the
// highest value, or at the lowest when lower is better (waits, energy).
func sequentialMap(lo, hi float64, lowerIsBetter bool) palette.ColorMap {
	cm := lightToDark(brewer.YlGnBu[9].Colors(), lo, hi)
	if !lowerIsBetter {
		return cm
	}
	rev := palette.Reverse(cm) // the reverse of the reverse: dark at the lowest
	rev.SetMin(lo)
	rev.SetMax(hi)
	return rev
}

// pointMap is the colour scale of scatter points by a metric:
// ColorBrewer's YlGnBu without its three lightest colours, so every point
// shows on white.
func pointMap(lo, hi float64) palette.ColorMap {
	return lightToDark(brewer.YlGnBu[9].Colors()[3:], lo, hi)
}

// energyMap is the colour scale of points by energy: ColorBrewer's YlOrRd
// without its three lightest colours, so every point shows on white,
// light orange for the least energy to dark red for the most.
func energyMap(lo, hi float64) palette.ColorMap {
	return lightToDark(brewer.YlOrRd[9].Colors()[3:], lo, hi)
}

// lightToDark maps [lo, hi] onto colours given light to dark, with
// luminance linear in the value so equal steps look equal.
func lightToDark(colors []color.Color, lo, hi float64) palette.ColorMap {
	dark := slices.Clone(colors)
	slices.Reverse(dark)
	cm, err := moreland.NewLuminance(dark)
	if err != nil {
		panic(err) // ColorBrewer's sequential luminance is monotonic: a bug if not
	}
	rev := palette.Reverse(cm)
	rev.SetMin(lo)
	rev.SetMax(hi)
	return rev
}

// colorScale is a vertical colour bar drawn as vector strips: gonum's
// ColorBar draws a 1-pixel-wide raster image, which an SVG viewer keeps at
// its aspect ratio, so the bar shows as a hairline in a browser.
type colorScale struct{ cm palette.ColorMap }

// colorScaleSteps is the strips of a colour bar: smooth to the eye, and
// few enough that the SVG stays small.
const colorScaleSteps = 64

// colorScaleW is the bar's width, left-aligned in its plot.
const colorScaleW = 0.25 * vg.Inch

func (s colorScale) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	lo, hi := s.cm.Min(), s.cm.Max()
	step := (hi - lo) / colorScaleSteps
	for k := 0; k < colorScaleSteps; k++ {
		v0, v1 := lo+float64(k)*step, lo+float64(k+1)*step
		col, err := s.cm.At(math.Min((v0+v1)/2, hi))
		if err != nil {
			continue
		}
		// Each strip overlaps the next by half a point: no seams.
		y0, y1 := trY(v0), trY(v1)+vg.Points(0.5)
		if k == colorScaleSteps-1 {
			y1 = trY(hi)
		}
		x0 := trX(0)
		x1 := min(trX(1), x0+colorScaleW)
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

func (s colorScale) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, 1, s.cm.Min(), s.cm.Max()
}
