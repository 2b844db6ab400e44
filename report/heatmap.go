package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// noData is the fill of a heatmap cell no run has.
var noData = color.Gray{Y: 0xdd}

// sweptWeights returns the weight parameters (param_w_<factor>) a sweep
// varies over numeric values, in column order.
func (s *Sweep) sweptWeights() []string {
	var out []string
	for _, p := range s.Varying {
		if !strings.HasPrefix(p, metrics.ParamPrefix+"w_") {
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
			col := metrics.ParamPrefix + strings.TrimPrefix(a, metrics.ParamPrefix)
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

// maxFacets bounds the panels of a faceted heatmap; a sweep with more
// combinations of its other parameters gets the first ones and a note.
const maxFacets = 12

// facet is one combination of the sweep's other varying parameters (all
// but the heatmap's two weights): its label and its rows.
type facet struct {
	Label string
	Rows  []map[string]string
}

// facets splits the sweep's rows by the values of every varying
// parameter other than xw and yw, in the order of their first row (the
// summary is sorted by key, so by parameter values). One facet, with an
// empty label, when nothing else varies.
func (s *Sweep) facets(xw, yw string) []facet {
	others := otherVarying(s, xw, yw)
	var out []facet
	index := map[string]int{}
	for _, row := range s.Rows {
		var parts []string
		for _, p := range others {
			parts = append(parts, shortParam(p)+"="+row[p])
		}
		key := strings.Join(parts, " ")
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, facet{Label: key})
		}
		out[i].Rows = append(out[i].Rows, row)
	}
	return out
}

// heatmapGrid is the mean of metric over the rows of each pair of
// weights (their seeds), NaN where no row has a value.
func heatmapGrid(rows []map[string]string, xs, ys []string, xw, yw, metricCol string) cellGrid {
	sum := make([][]float64, len(ys))
	n := make([][]int, len(ys))
	for r := range ys {
		sum[r], n[r] = make([]float64, len(xs)), make([]int, len(xs))
	}
	for _, row := range rows {
		v := metric(row, metricCol)
		c, r := slices.Index(xs, row[xw]), slices.Index(ys, row[yw])
		if math.IsNaN(v) || math.IsInf(v, 0) || c < 0 || r < 0 {
			continue
		}
		sum[r][c] += v
		n[r][c]++
	}
	g := cellGrid{z: make([][]float64, len(ys))}
	for r := range ys {
		g.z[r] = make([]float64, len(xs))
		for c := range xs {
			g.z[r][c] = math.NaN()
			if n[r][c] > 0 {
				g.z[r][c] = sum[r][c] / float64(n[r][c])
			}
		}
	}
	return g
}

// heatmapFigure draws metric over the two weights, one panel per
// combination of the sweep's other varying parameters (backfill, say),
// never averaged across them: each cell is the mean over the seeds of one
// parameter combination, labelled with its value. The panels share one
// colour scale.
func heatmapFigure(s *Sweep, name, xw, yw, metricCol string) (Figure, error) {
	what, better := metricWords(metricCol)
	f := Figure{Name: name, Title: fmt.Sprintf("%s over %s and %s (%s)", what, shortParam(xw), shortParam(yw), s.Name)}
	xs, ys := s.distinct(xw), s.distinct(yw)
	fs := s.facets(xw, yw)
	shown := fs[:min(len(fs), maxFacets)]
	grids := make([]cellGrid, len(shown))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, fc := range shown {
		grids[i] = heatmapGrid(fc.Rows, xs, ys, xw, yw, metricCol)
		for _, row := range grids[i].z {
			for _, v := range row {
				if !math.IsNaN(v) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1 // no value at all: every cell is grey
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5 // a constant metric still needs a scale
	}
	cm := sequentialMap(lo, hi, better == lowerBetter)
	panels := make([]*plot.Plot, len(shown))
	for i, fc := range shown {
		title := f.Title
		if len(fs) > 1 {
			title = fc.Label
		}
		p, err := heatmapPanel(grids[i], cm, lo, hi, xs, ys, title, xw, yw)
		if err != nil {
			return f, err
		}
		panels[i] = p
	}
	f.ColorBar = colorBarPlot(colorScale{cm}, what)
	f.Caption = fmt.Sprintf("Each cell: mean %s (%s) over the seeds of one parameter combination; grey: no run.", what, metricCol)
	switch better {
	case lowerBetter, higherBetter:
		f.Caption += " Darker is better."
	default:
		f.Caption += " Darker is higher."
	}
	if len(fs) == 1 {
		f.Plot = panels[0]
		return f, nil
	}
	cols := len(panels)
	if cols > 3 {
		cols = int(math.Ceil(math.Sqrt(float64(len(panels)))))
	}
	for i := 0; i < len(panels); i += cols {
		row := make([]*plot.Plot, cols)
		copy(row, panels[i:min(i+cols, len(panels))])
		f.Panels = append(f.Panels, row)
	}
	f.Caption += fmt.Sprintf(" One panel per value of the other varied parameters (%s), on one colour scale.",
		strings.Join(mapStrings(otherVarying(s, xw, yw), shortParam), ", "))
	if len(fs) > len(shown) {
		f.Caption += fmt.Sprintf(" The first %d of %s are shown.", len(shown), words.Count(len(fs), "combination"))
	}
	return f, nil
}

// heatmapPanel is one panel of a heatmap: the grid, each cell labelled.
func heatmapPanel(g cellGrid, cm palette.ColorMap, lo, hi float64, xs, ys []string, title, xw, yw string) (*plot.Plot, error) {
	// An even count: palette.Reverse leaves the middle colour of an odd
	// one unset.
	hm := plotter.NewHeatMap(g, cm.Palette(256))
	hm.Min, hm.Max = lo, hi
	hm.NaN = noData
	p := newPlot(title, shortParam(xw)+" (weight)", shortParam(yw)+" (weight)")
	p.Add(hm)
	labels, err := cellLabels(g, cm)
	if err != nil {
		return nil, err
	}
	p.Add(labels)
	p.NominalX(xs...)
	p.NominalY(ys...)
	p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5
	return p, nil
}

// otherVarying are the varying parameters besides the two weights.
func otherVarying(s *Sweep, xw, yw string) []string {
	var others []string
	for _, p := range s.Varying {
		if p != xw && p != yw {
			others = append(others, p)
		}
	}
	return others
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
			st.Font.Size = vg.Points(textSize)
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
		return words.Thousands(strconv.FormatFloat(v, 'f', 0, 64))
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

// metricWords is how a figure names a summary column, with its unit, and
// which way is better: the summary table's words when it has the column
// ("mean wait (s)"), else the column's own with its unit suffix spelled
// ("mean_slowdown" → "mean slowdown").
func metricWords(col string) (string, int) {
	unit := ""
	base := col
	for _, u := range []struct{ suffix, unit string }{{"_s", "s"}, {"_kwh", "kWh"}, {"_w", "W"}, {"_j", "J"}} {
		if b, ok := strings.CutSuffix(col, u.suffix); ok {
			base, unit = b, u.unit
			break
		}
	}
	name, better := strings.ReplaceAll(base, "_", " "), 0
	for _, m := range summaryMetrics {
		if m.Col == col {
			name, better = m.Name, m.better
		}
	}
	if better == 0 {
		better = columnDirection(col)
	}
	if unit != "" {
		name += " (" + unit + ")"
	}
	return name, better
}

// columnDirection is which way is better for a summary column the
// curated table does not hold: waits, slowdowns, energy, cost and carbon
// lower; fairness indexes and utilization higher; 0 when unknown.
func columnDirection(col string) int {
	switch {
	case strings.HasPrefix(col, "jain_"), strings.HasPrefix(col, "utilization"):
		return higherBetter
	case strings.Contains(col, "wait"), strings.Contains(col, "bsld"), strings.Contains(col, "slowdown"),
		strings.Contains(col, "energy"), strings.Contains(col, "cost"), strings.Contains(col, "carbon"),
		strings.Contains(col, "makespan"), strings.Contains(col, "killed"), strings.Contains(col, "rejected"):
		return lowerBetter
	}
	return 0
}
