package report

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The house style every figure obeys (docs/outputs.md, "House style"):
// 16:9, 8 × 4.5 inches at 160 dpi (1280 × 720 pixels) so that text of
// textSize points stays readable on a slide; a colour-blind-safe palette;
// titles and subtitles that wrap; tick labels that never overlap (thinned
// or wrapped, measured with the fonts' metrics); legends at most
// legendMaxShare of the width.
const (
	titleSize      = 14 // pt, the figure's title
	textSize       = 12 // pt, every other text: subtitles, axis labels, ticks, legends
	legendMaxShare = 0.3
	labelGap       = 4 // pt between two tick labels
)

// okabeIto is Okabe and Ito's colour-blind-safe palette (2008) without
// its yellow, which does not show on white: run i's colour.
var okabeIto = []color.Color{
	color.NRGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.NRGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.NRGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.NRGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.NRGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.NRGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.NRGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// tolMuted is Paul Tol's "muted" qualitative scheme, colour-blind safe,
// for the many users of a Gantt chart.
var tolMuted = []color.Color{
	color.NRGBA{0x33, 0x22, 0x88, 0xff}, color.NRGBA{0x88, 0xcc, 0xee, 0xff}, color.NRGBA{0x44, 0xaa, 0x99, 0xff},
	color.NRGBA{0x11, 0x77, 0x33, 0xff}, color.NRGBA{0x99, 0x99, 0x33, 0xff}, color.NRGBA{0xdd, 0xcc, 0x77, 0xff},
	color.NRGBA{0xcc, 0x66, 0x77, 0xff}, color.NRGBA{0x88, 0x22, 0x55, 0xff}, color.NRGBA{0xaa, 0x44, 0x99, 0xff},
}

// styleText sets every text of p to the house sizes.
func styleText(p *plot.Plot) {
	p.Title.TextStyle.Font.Size = vg.Points(titleSize)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(textSize)
		a.Tick.Label.Font.Size = vg.Points(textSize)
	}
	p.Legend.TextStyle.Font.Size = vg.Points(textSize)
}

// wrapText breaks each line of s at spaces so that no line is wider than
// width in style st; a word wider than width stays whole.
func wrapText(s string, st text.Style, width vg.Length) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if st.Width(line) <= width {
			out = append(out, line)
			continue
		}
		cur := ""
		for _, w := range strings.Fields(line) {
			try := w
			if cur != "" {
				try = cur + " " + w
			}
			if cur != "" && st.Width(try) > width {
				out = append(out, cur)
				cur = w
				continue
			}
			cur = try
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// fitTitle wraps p's title (its subtitle lines included) to the width of
// the area the plot is drawn in.
func fitTitle(p *plot.Plot, area draw.Canvas) {
	if p.Title.Text == "" {
		return
	}
	title, sub, hasSub := strings.Cut(p.Title.Text, "\n")
	w := area.Max.X - area.Min.X - vg.Points(4)
	t := wrapText(title, p.Title.TextStyle, w)
	if hasSub {
		// The subtitle wraps in the title's style: gonum draws a title in
		// one style, and the wider measure keeps every line inside.
		t += "\n" + wrapText(sub, p.Title.TextStyle, w)
	}
	p.Title.Text = t
}

// fitTicks makes the tick labels of p, as drawn in area, neither overlap
// nor leave the area: labels wider than the space between two ticks are
// wrapped at spaces, and a label that still collides with the one kept
// before it is dropped (its tick stays, unlabelled).
func fitTicks(p *plot.Plot, area draw.Canvas) {
	dc := p.DataCanvas(area)
	xs := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	p.X.Tick.Marker = plot.ConstantTicks(fitAxis(xs, p.X, dc.Min.X, dc.Max.X, area.Min.X, area.Max.X, true))
	ys := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
	p.Y.Tick.Marker = plot.ConstantTicks(fitAxis(ys, p.Y, dc.Min.Y, dc.Max.Y, area.Min.Y, area.Max.Y, false))
}

// fitAxis is fitTicks for one axis whose data run from lo to hi on the
// canvas, inside the area's bounds [min, max].
func fitAxis(ts []plot.Tick, a plot.Axis, lo, hi, min, max vg.Length, horizontal bool) []plot.Tick {
	at := func(v float64) vg.Length { return lo + vg.Length(a.Norm(v))*(hi-lo) }
	st := a.Tick.Label
	size := func(s string) vg.Length {
		if horizontal {
			return st.Width(s)
		}
		return st.Height(s)
	}
	var labelled []int
	for i, t := range ts {
		if t.Label != "" && t.Value >= math.Min(a.Min, a.Max) && t.Value <= math.Max(a.Min, a.Max) {
			labelled = append(labelled, i)
		}
	}
	out := append([]plot.Tick(nil), ts...)
	if horizontal && len(labelled) > 1 {
		// The least space between two labelled ticks: wider labels wrap.
		slot := vg.Length(math.Inf(1))
		for k := 1; k < len(labelled); k++ {
			slot = min2(slot, vg.Length(math.Abs(float64(at(ts[labelled[k]].Value)-at(ts[labelled[k-1]].Value)))))
		}
		for _, i := range labelled {
			if size(out[i].Label) > slot-vg.Points(labelGap) {
				out[i].Label = wrapText(out[i].Label, st, slot-vg.Points(labelGap))
			}
		}
	}
	last := vg.Length(math.Inf(-1))
	for _, i := range labelled {
		c, half := at(out[i].Value), size(out[i].Label)/2
		if horizontal && (c-half < min || c+half > max) || c-half < last+vg.Points(labelGap) {
			out[i].Label = ""
			continue
		}
		last = c + half
	}
	return out
}

func min2(a, b vg.Length) vg.Length {
	if a < b {
		return a
	}
	return b
}

// legendWidth is the most a legend entry's text takes: legendMaxShare of
// the default figure's width, less its thumbnail.
var legendWidth = vg.Length(float64(DefaultSize.Width)/float64(DefaultSize.DPI)*legendMaxShare)*vg.Inch - vg.Points(24)

// fitLegendText shortens s, with an ellipsis, to legendWidth at the
// house text size.
func fitLegendText(s string) string {
	st := text.Style{Font: font.From(plot.DefaultFont, vg.Points(textSize)), Handler: plot.DefaultTextHandler}
	if st.Width(s) <= legendWidth {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && st.Width(string(r)+"…") > legendWidth {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "…"
}
