package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// isTune reports whether the sweep summary was written by `schedsim
// tune`: its rows are the profiles a search evaluated, at weights of its
// choosing, so a grid of them is mostly empty cells.
func (s *Sweep) isTune() bool {
	return s.hasColumn("objective") && s.hasColumn("iteration") && s.hasColumn("feasible")
}

// tuneFigure draws the profiles a tuning run evaluated at their two
// weights xw and yw, coloured by the objective, feasible ones filled and
// infeasible ones as crosses, with the Pareto front (of wait, fairness
// and energy; see markFront) ringed. front maps a run label to whether it
// is on the front; nil when the summary cannot tell.
func tuneFigure(s *Sweep, name, xw, yw string, front map[string]bool) (Figure, error) {
	f := Figure{Name: name, Title: fmt.Sprintf("Evaluated weights: %s and %s (%s)", shortParam(xw), shortParam(yw), s.Name)}
	type pt struct {
		x, y, obj float64
		feasible  bool
		front     bool
	}
	var pts []pt
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range s.Rows {
		p := pt{x: metric(row, xw), y: metric(row, yw), obj: metric(row, "objective"),
			feasible: row["feasible"] == "1", front: front[row[metrics.ColRun]]}
		if math.IsNaN(p.x) || math.IsNaN(p.y) {
			continue
		}
		if !math.IsNaN(p.obj) {
			lo, hi = math.Min(lo, p.obj), math.Max(hi, p.obj)
		}
		pts = append(pts, p)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	cm := pointMap(lo, hi)
	objective := objectiveName(s)
	p := newPlot(f.Title, shortParam(xw)+" (weight)", shortParam(yw)+" (weight)")
	xy := make(plotter.XYs, len(pts))
	for i, q := range pts {
		xy[i] = plotter.XY{X: q.x, Y: q.y}
	}
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return f, err
	}
	sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		c := color.Color(color.Gray{Y: 0x70})
		if mc, err := cm.At(pts[i].obj); err == nil {
			c = mc
		}
		if !pts[i].feasible {
			return draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.CrossGlyph{}}
		}
		return draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	}
	p.Add(sc)
	var ring plotter.XYs
	for _, q := range pts {
		if q.front {
			ring = append(ring, plotter.XY{X: q.x, Y: q.y})
		}
	}
	nFront := len(ring)
	if nFront > 0 {
		rings, err := plotter.NewScatter(ring)
		if err != nil {
			return f, err
		}
		rings.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6.5), Shape: draw.RingGlyph{}}
		p.Add(rings)
	}
	f.Plot = p
	f.ColorBar = colorBarPlot(colorScale{cm}, objective)
	var others []string
	for _, w := range s.sweptWeights() {
		if w != xw && w != yw {
			others = append(others, shortParam(w))
		}
	}
	f.Caption = fmt.Sprintf("Each point: one profile the search evaluated, at its %s and %s weights; colour: the objective, %s; "+
		"dots: feasible, crosses: a constraint failed.", shortParam(xw), shortParam(yw), objective)
	if front != nil {
		f.Caption += fmt.Sprintf(" Ringed: the Pareto front of mean wait, Jain's index of bsld and energy (%d of %s).", nFront, words.Count(len(pts), "profile"))
	}
	if len(others) > 0 {
		f.Caption += " The search also tuned " + strings.Join(others, ", ") + " (--heatmap-weights picks the two drawn)."
	}
	return f, nil
}

// objectiveName is the tuned objective's name: the summary's column
// whose values equal the objective column's, else "objective".
func objectiveName(s *Sweep) string {
	for _, c := range s.Cols {
		if c == "objective" || c == "penalized" || strings.HasPrefix(c, metrics.ParamPrefix) || c == "iteration" || c == "feasible" {
			continue
		}
		same, any := true, false
		for _, row := range s.Rows {
			if row["objective"] == "" {
				continue
			}
			any = true
			if row[c] != row["objective"] {
				same = false
				break
			}
		}
		if any && same {
			return c
		}
	}
	return "objective"
}
