package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// noData is the fill of a heatmap cell no run has.
var noData = color.Gray{Y: 0xdd}

// sweptWeights returns the weight parameters (param_w_<factor>) a sweep
// varies over numeric values, in column order.
func (s *Sweep) sweptWeights() []string {
	var out []string
	for _, p := range s.Varying {
		if !strings.HasPrefix(p, "param_w_") {
			continue
		}
		numeric := true
		for _, v := range s.distinct(p) {
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric = false
			}
		}
		if numeric {
			out = append(out, p)
		}
	}
	return out
}

// heatmapWeights picks the two weights of the heatmap: the ones asked for
// (w_age or param_w_age), else the two swept weights with the most
// distinct values, ties in column order. ok is false when the sweep varies
// fewer than two weights.
func (s *Sweep) heatmapWeights(asked []string) (x, y string, ok bool, err error) {
	swept := s.sweptWeights()
	if len(asked) > 0 {
		if len(asked) != 2 {
			return "", "", false, fmt.Errorf("heatmap weights: give two, got %d (%s)", len(asked), strings.Join(asked, ","))
		}
		var cols [2]string
		for i, a := range asked {
			col := "param_" + strings.TrimPrefix(a, "param_")
			found := false
			for _, w := range swept {
				found = found || w == col
			}
			if !found {
				return "", "", false, fmt.Errorf("%s: %s is not a swept weight (swept: %s)", s.Dir, a, strings.Join(mapStrings(swept, shortParam), ", "))
			}
			cols[i] = col
		}
		return cols[0], cols[1], true, nil
	}
	if len(swept) < 2 {
		return "", "", false, nil
	}
	best := []string{swept[0], swept[1]}
	if len(s.distinct(best[1])) > len(s.distinct(best[0])) {
		best[0], best[1] = best[1], best[0]
	}
	for _, w := range swept[2:] {
		n := len(s.distinct(w))
		if n > len(s.distinct(best[0])) {
			best[0], best[1] = w, best[0]
		} else if n > len(s.distinct(best[1])) {
			best[1] = w
		}
	}
	return best[0], best[1], true, nil
}

// cellGrid is a heatmap's values: z[row][col], NaN where no run is.
type cellGrid struct{ z [][]float64 }

func (g cellGrid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g cellGrid) Z(c, r int) float64 { return g.z[r][c] }
func (g cellGrid) X(c int) float64    { return float64(c) }
func (g cellGrid) Y(r int) float64    { return float64(r) }

// heatmapFigure draws metric over the two weights: each cell is the mean
// of the metric over the runs with that pair of weights, whatever their
// other parameters and seeds, and is labelled with its value.
func heatmapFigure(s *Sweep, name, xw, yw, metricCol string) (Figure, error) {
	f := Figure{Name: name, Title: fmt.Sprintf("%s over %s and %s (%s)", metricCol, shortParam(xw), shortParam(yw), s.Name)}
	xs, ys := s.distinct(xw), s.distinct(yw)
	sum := make([][]float64, len(ys))
	n := make([][]int, len(ys))
	for r := range ys {
		sum[r], n[r] = make([]float64, len(xs)), make([]int, len(xs))
	}
	pos := func(vals []string, v string) int {
		for i, x := range vals {
			if x == v {
				return i
			}
		}
		return -1
	}
	for _, row := range s.Rows {
		v := metric(row, metricCol)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		c, r := pos(xs, row[xw]), pos(ys, row[yw])
		sum[r][c] += v
		n[r][c]++
	}
	g := cellGrid{z: make([][]float64, len(ys))}
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := range ys {
		g.z[r] = make([]float64, len(xs))
		for c := range xs {
			g.z[r][c] = math.NaN()
			if n[r][c] > 0 {
				v := sum[r][c] / float64(n[r][c])
				g.z[r][c] = v
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1 // no value at all: every cell is grey
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5 // a constant metric still needs a scale
	}
	cm := sequentialMap(lo, hi)
	// An even count: palette.Reverse leaves the middle colour of an odd
	// one unset.
	hm := plotter.NewHeatMap(g, cm.Palette(256))
	hm.Min, hm.Max = lo, hi
	hm.NaN = noData

	p := newPlot(f.Title, shortParam(xw)+" (weight)", shortParam(yw)+" (weight)")
	p.Add(hm)
	labels, err := cellLabels(g, cm)
	if err != nil {
		return f, err
	}
	p.Add(labels)
	p.NominalX(xs...)
	p.NominalY(ys...)
	p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5
	f.Plot = p
	f.ColorBar = colorBarPlot(colorScale{cm}, metricCol)
	f.Caption = fmt.Sprintf("Each cell: mean %s over the runs with that pair of weights%s; grey: no run.",
		metricCol, averagedOver(s, xw, yw))
	return f, nil
}

// averagedOver says what a cell averages besides seeds: the other varying
// parameters.
func averagedOver(s *Sweep, xw, yw string) string {
	var others []string
	for _, p := range s.Varying {
		if p != xw && p != yw {
			others = append(others, shortParam(p))
		}
	}
	if len(others) == 0 {
		return " (and seeds)"
	}
	return " (and seeds, and over " + strings.Join(others, ", ") + ")"
}

// cellLabels writes each cell's value on it, dark text on light cells and
// light text on dark ones.
func cellLabels(g cellGrid, cm palette.ColorMap) (*plotter.Labels, error) {
	var xy plotter.XYLabels
	for r := range g.z {
		for c, v := range g.z[r] {
			if math.IsNaN(v) {
				continue
			}
			xy.XYs = append(xy.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			xy.Labels = append(xy.Labels, compact(v))
		}
	}
	l, err := plotter.NewLabels(xy)
	if err != nil {
		return nil, err
	}
	k := 0
	for r := range g.z {
		for _, v := range g.z[r] {
			if math.IsNaN(v) {
				continue
			}
			st := l.TextStyle[k]
			st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
			st.Font.Size = vg.Points(9)
			st.Color = color.Black
			if c, err := cm.At(v); err == nil && luminance(c) < 0.45 {
				st.Color = color.White
			}
			l.TextStyle[k] = st
			k++
		}
	}
	return l, nil
}

// luminance is the relative luminance of c in [0, 1] (Rec. 709 weights on
// the gamma-encoded channels: enough to pick black or white text).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// compact formats a value with three significant digits and no exponent
// for the magnitudes metrics have: 12345 → 12345, 1.2345 → 1.23.
func compact(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1 || a == 0:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

func mapStrings(xs []string, f func(string) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
