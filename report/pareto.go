package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/metrics"
)

// The Pareto front's three objectives, as sweep summary columns: mean wait
// (lower is better), Jain's index of the tenants' mean bounded slowdown
// (higher is better) and energy (lower is better; energy_j when the
// summary has no energy_kwh).
const (
	paretoWait     = metrics.ColMeanWait
	paretoFairness = metrics.ColJainBSLD
)

// energyColumn is the sweep's energy column and what to divide it by for
// kWh, or "" when it has none.
func (s *Sweep) energyColumn() (string, float64) {
	if s.hasColumn(metrics.ColEnergyKWh) {
		return metrics.ColEnergyKWh, 1
	}
	if s.hasColumn(metrics.ColEnergyJ) {
		return metrics.ColEnergyJ, 3.6e6
	}
	return "", 0
}

// paretoPoint is a sweep point placed on the three objectives.
type paretoPoint struct {
	*point
	Wait, Fairness, Energy float64 // s, ratio, kWh (NaN: no energy column)
	Front                  bool
}

// paretoPoints averages each parameter combination over its seeds and
// marks the non-dominated ones. Points lacking a wait or a fairness value
// (no tenant, no started job) are left out.
func (s *Sweep) paretoPoints() ([]*paretoPoint, error) {
	for _, c := range []string{paretoWait, paretoFairness} {
		if err := s.requireColumn(c); err != nil {
			return nil, err
		}
	}
	ecol, perKWh := s.energyColumn()
	cols := []string{paretoWait, paretoFairness}
	if ecol != "" {
		cols = append(cols, ecol)
	}
	var out []*paretoPoint
	for _, pt := range s.points(cols) {
		pp := &paretoPoint{point: pt, Wait: pt.Metrics[paretoWait], Fairness: pt.Metrics[paretoFairness], Energy: math.NaN()}
		if ecol != "" {
			pp.Energy = pt.Metrics[ecol] / perKWh
		}
		if math.IsNaN(pp.Wait) || math.IsNaN(pp.Fairness) {
			continue
		}
		out = append(out, pp)
	}
	markFront(out)
	return out, nil
}

// markFront sets Front on the points no other point dominates: another
// point dominates p when it is at least as good on every objective (wait
// and energy no higher, fairness no lower) and better on one. Energy
// counts only when every point has it.
func markFront(pts []*paretoPoint) {
	withEnergy := true
	for _, p := range pts {
		withEnergy = withEnergy && !math.IsNaN(p.Energy)
	}
	dominates := func(q, p *paretoPoint) bool {
		if q.Wait > p.Wait || q.Fairness < p.Fairness {
			return false
		}
		better := q.Wait < p.Wait || q.Fairness > p.Fairness
		if withEnergy {
			if q.Energy > p.Energy {
				return false
			}
			better = better || q.Energy < p.Energy
		}
		return better
	}
	for _, p := range pts {
		p.Front = true
		for _, q := range pts {
			if q != p && dominates(q, p) {
				p.Front = false
				break
			}
		}
	}
}

// minParetoPoints is the fewest parameter combinations a Pareto figure
// is drawn for: with two, the "front" is one point or both.
const minParetoPoints = 3

// paretoFigure draws mean wait against fairness, one point per parameter
// combination coloured by its energy, with the front ringed and labelled
// by its parameters. ok is false when no point has both axes.
func paretoFigure(s *Sweep, name string, pts []*paretoPoint) (f Figure, ok bool, err error) {
	f = Figure{Name: name, Title: "Pareto front: wait, fairness, energy (" + s.Name + ")"}
	if len(pts) < minParetoPoints {
		return f, false, nil // no trade-off to show: the summary table says it all
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if !math.IsNaN(p.Energy) {
			lo, hi = math.Min(lo, p.Energy), math.Max(hi, p.Energy)
		}
	}
	withEnergy := !math.IsInf(lo, 1)
	if !withEnergy {
		lo, hi = 0, 1
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	cm := energyMap(lo, hi)

	p := newPlot(f.Title, "mean wait (s)", "Jain's index of bsld (ratio)")
	p.Legend.Top, p.Legend.Left = false, false
	xy := make(plotter.XYs, len(pts))
	for i, pt := range pts {
		xy[i] = plotter.XY{X: pt.Wait, Y: pt.Fairness}
	}
	all, err := plotter.NewScatter(xy)
	if err != nil {
		return f, false, err
	}
	all.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		c := color.Color(color.Gray{Y: 0x70})
		if withEnergy {
			if mc, err := cm.At(pts[i].Energy); err == nil {
				c = mc
			}
		}
		return draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	}
	p.Add(all)
	p.Legend.Add("parameter combination (mean over seeds)", all)

	var front plotter.XYs
	for _, pt := range pts {
		if pt.Front {
			front = append(front, plotter.XY{X: pt.Wait, Y: pt.Fairness})
		}
	}
	rings, err := plotter.NewScatter(front)
	if err != nil {
		return f, false, err
	}
	rings.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6.5), Shape: draw.RingGlyph{}}
	p.Add(rings)
	if len(front) == 1 {
		p.Legend.Add("best on every objective", rings)
	} else {
		p.Legend.Add("Pareto front (non-dominated)", rings)
	}
	p.Add(newFrontLabels(pts))
	padRange(p)
	f.Plot = p

	energyNote := "colour: energy (kWh, lower is better)"
	if withEnergy {
		f.ColorBar = colorBarPlot(colorScale{cm}, "energy (kWh)")
	} else {
		energyNote = "no energy column, so two objectives"
	}
	f.Caption = fmt.Sprintf("Each point: one combination of the swept parameters, averaged over its seeds; x: mean_wait_s "+
		"(lower is better), y: jain_bsld (higher is better), %s. Ringed and labelled: the Pareto front, the points "+
		"no other point beats on one objective without losing on another (%d of %d).", energyNote, len(front), len(pts))
	return f, true, nil
}

// padRange widens the axes so glyphs at the extremes stay inside the
// frame, the labels have room on the right and the legend (bottom right)
// room below. Jain's index stays at most a hair above 1.
func padRange(p *plot.Plot) {
	dx, dy := p.X.Max-p.X.Min, p.Y.Max-p.Y.Min
	if dx == 0 {
		dx = math.Max(math.Abs(p.X.Max), 1)
	}
	if dy == 0 {
		dy = 0.1
	}
	top := p.Y.Max
	p.X.Min -= 0.05 * dx
	p.X.Max += 0.35 * dx
	p.Y.Min -= 0.3 * dy
	p.Y.Max += 0.1 * dy
	if top <= 1 {
		p.Y.Max = math.Min(p.Y.Max, 1+0.03*dy)
	}
}
