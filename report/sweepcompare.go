package report

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// compareMetrics are the headline metrics a report of several sweeps
// draws, one figure each, when the sweeps have them.
var compareMetrics = []string{metrics.ColMeanWait, metrics.ColP95Wait, metrics.ColMeanBSLD, metrics.ColUtilization, metrics.ColJainBSLD, metrics.ColEnergyKWh}

// sweepGroup is one parameter combination of one sweep: the values of
// its replicas (the rows that differ only in seed) for each metric.
type sweepGroup struct {
	Sweep  int // index in the report's sweeps, its colour
	Label  string
	Values map[string][]float64
}

// sweepGroups lists every sweep's parameter combinations, in sweep then
// summary order, labelled by the sweep's name and, when the sweep has
// several, the combination's varying parameters.
func sweepGroups(sweeps []*Sweep, metrics []string) []sweepGroup {
	var out []sweepGroup
	for i, s := range sweeps {
		index := map[string]int{}
		for _, row := range s.Rows {
			var key, label []string
			for _, p := range s.Params {
				key = append(key, row[p])
			}
			for _, p := range s.Varying {
				label = append(label, shortParam(p)+"="+row[p])
			}
			k := strings.Join(key, "\x00")
			g, ok := index[k]
			if !ok {
				g = len(out)
				index[k] = g
				name := s.Name
				if len(label) > 0 {
					name += " " + strings.Join(label, " ")
				}
				out = append(out, sweepGroup{Sweep: i, Label: name, Values: map[string][]float64{}})
			}
			for _, m := range metrics {
				if v := metric(row, m); !math.IsNaN(v) && !math.IsInf(v, 0) {
					out[g].Values[m] = append(out[g].Values[m], v)
				}
			}
		}
	}
	return out
}

// compareFigures draws, for a report of two sweeps or more, one figure
// per headline metric: each group (a sweep's parameter combination) side
// by side, its replicas as dots, their mean as a bar across and their
// range as a line. None for fewer than two sweeps.
func compareFigures(sweeps []*Sweep) ([]Figure, error) {
	if len(sweeps) < 2 {
		return nil, nil
	}
	var metrics []string
	for _, m := range compareMetrics {
		for _, s := range sweeps {
			if s.hasValues(m) {
				metrics = append(metrics, m)
				break
			}
		}
	}
	groups := sweepGroups(sweeps, metrics)
	labels := make([]string, len(groups))
	for i, g := range groups {
		labels[i] = g.Label
	}
	var figs []Figure
	for _, m := range metrics {
		f, err := compareFigure(sweeps, groups, labels, m)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// compareFigure is compareFigures' figure of one metric.
func compareFigure(sweeps []*Sweep, groups []sweepGroup, labels []string, m string) (Figure, error) {
	what, better := metricWords(m)
	scale, unit := 1.0, ""
	if strings.HasSuffix(m, "_s") { // durations in the unit that suits them
		most := 0.0
		for _, g := range groups {
			for _, v := range g.Values[m] {
				most = math.Max(most, v)
			}
		}
		scale, unit = durationUnit(most)
		what = strings.TrimSuffix(what, " (s)") + " (" + unit + ")"
	}
	if m == metrics.ColUtilization {
		scale, what = 100, "utilization (%)"
	}
	names := make([]string, len(sweeps))
	for i, s := range sweeps {
		names[i] = s.Name
	}
	f := Figure{Name: "sweeps_" + figureSafe(m), Title: what + " across replicas: " + strings.Join(names, " vs ")}
	p := newPlot(f.Title, "", what)
	leg := outsideLegend()
	most, replicas := 0.0, 0
	for k, g := range groups {
		vals := g.Values[m]
		if len(vals) == 0 {
			continue
		}
		replicas = max(replicas, len(vals))
		c := runColor(g.Sweep)
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		dots := make(plotter.XYs, len(vals))
		for i, v := range vals {
			v *= scale
			lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
			dots[i] = plotter.XY{X: float64(k), Y: v}
		}
		most = math.Max(most, hi)
		mean := sum / float64(len(vals))
		span, err := plotter.NewLine(plotter.XYs{{X: float64(k), Y: lo}, {X: float64(k), Y: hi}})
		if err != nil {
			return f, err
		}
		span.Color, span.Width = c, vg.Points(1.5)
		bar, err := plotter.NewLine(plotter.XYs{{X: float64(k) - 0.25, Y: mean}, {X: float64(k) + 0.25, Y: mean}})
		if err != nil {
			return f, err
		}
		bar.Color, bar.Width = c, vg.Points(3)
		sc, err := plotter.NewScatter(dots)
		if err != nil {
			return f, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
		p.Add(span, bar, sc)
		if k == 0 || groups[k-1].Sweep != g.Sweep {
			leg.Add(sweeps[g.Sweep].Name, sc)
		}
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	p.Y.Min, p.Y.Max = 0, most*1.08 // room above the highest replica
	if most <= 0 {
		p.Y.Max = 1
	}
	switch {
	case m == metrics.ColUtilization:
		p.Y.Max = 100
	case strings.HasPrefix(m, "jain_"):
		p.Y.Max = 1 // Jain's index is at most 1
	}
	f.Plot, f.Legend = p, leg
	dir := ""
	switch better {
	case lowerBetter:
		dir = " Lower is better."
	case higherBetter:
		dir = " Higher is better."
	}
	f.Caption = fmt.Sprintf("Each column: one sweep's parameter combination; rings: its replicas (up to %s), "+
		"thick bar: their mean, line: lowest to highest (%s).%s", words.Count(replicas, "replica"), m, dir)
	return f, nil
}

// durationUnit is the unit of an axis of durations up to most seconds:
// the scale from seconds and its name.
func durationUnit(most float64) (float64, string) {
	switch {
	case most >= 3*86400:
		return 1.0 / 86400, "days"
	case most >= 3*3600:
		return 1.0 / 3600, "h"
	case most >= 180:
		return 1.0 / 60, "min"
	}
	return 1, "s"
}
