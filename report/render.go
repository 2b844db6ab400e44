package report

import (
	"bytes"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colour-bar geometry: its strip takes colorBarW at the right of the
// figure, and its ends line up with the main plot's data area (below the
// title, above the x axis), measured on the figures as drawn.
const (
	colorBarW      = 1.1 * vg.Inch
	colorBarGap    = 0.15 * vg.Inch
	colorBarTop    = 0.2 * vg.Inch
	colorBarBottom = 0.45 * vg.Inch
)

// render draws the figure as PNG or SVG bytes.
func (f Figure) render(ext string) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(figW, figH, ext)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	if f.ColorBar == nil {
		f.Plot.Draw(dc)
	} else {
		f.Plot.Draw(draw.Crop(dc, 0, -colorBarW-colorBarGap, 0, 0))
		f.ColorBar.Draw(draw.Crop(dc, figW-colorBarW, 0, colorBarBottom, -colorBarTop))
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

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
// light yellow for the lowest value to dark blue for the highest, with
// luminance linear in the value so equal steps look equal.
func sequentialMap(lo, hi float64) palette.ColorMap {
	dark := slices.Clone(brewer.YlGnBu[9].Colors())
	slices.Reverse(dark)
	cm, err := moreland.NewLuminance(dark)
	if err != nil {
		panic(err) // YlGnBu's luminance is monotonic: a bug if not
	}
	rev := palette.Reverse(cm)
	rev.SetMin(lo)
	rev.SetMax(hi)
	return rev
}
