package calibrate

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/metrics"
)

// calibrationFigure draws each candidate's objective on the choosing part
// against the reported one (or, in-sample, by rank), the best circled.
// The x axis is each candidate's choice objective (xLabel says which);
// ranked[0] is the chosen one.
func calibrationFigure(path, trace string, ranked []*Candidate, parts []string, axes []axis, xLabel string) error {
	p := plot.New()
	var pts plotter.XYs
	for i, cd := range ranked {
		x := cd.Score
		y := float64(i + 1)
		if len(parts) > 1 {
			y = PartObjective(cd.Result[parts[1]])
		}
		if !math.IsNaN(x) && !math.IsNaN(y) {
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
	}
	var names []string
	for i, a := range axes {
		names = append(names, a.key+"="+ranked[0].Values[i])
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
