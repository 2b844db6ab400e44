package report

import (
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// cumulative integrates the step function p (p[i] holds on [t[i], t[i+1]))
// and returns ∫ p dt at each t[i]: exact, as power is constant between
// events, so the straight line between two vertices is the integral too.
// A long series keeps maxPoints of its vertices, evenly spaced by index
// and always the first and the last, each still exact.
func cumulative(t, p []float64) (xs, ys []float64) {
	n := len(t)
	if n == 0 {
		return nil, nil
	}
	acc := make([]float64, n)
	for i := 1; i < n; i++ {
		acc[i] = acc[i-1] + p[i-1]*(t[i]-t[i-1])
	}
	if n <= maxPoints {
		return append([]float64(nil), t...), acc
	}
	for k := 0; k < maxPoints; k++ {
		i := k * (n - 1) / (maxPoints - 1)
		xs = append(xs, t[i])
		ys = append(ys, acc[i])
	}
	return xs, ys
}

// energyFigure is the cumulative energy of each run against time, from
// the timeseries' power_w. Runs without power (no power model: power_w is
// null) are left out; no figure when none has any.
func energyFigure(runs []*Run, lt legendText) (*Figure, error) {
	f := Figure{Name: "energy", Title: "Cumulative energy",
		Caption: "Energy drawn since the first event: ∫ power dt over the timeseries' power_w, exact per piece " +
			"(the last point is the summary's energy_kwh)."}
	p := runsPlot(f.Title, "", "energy (kWh)", lt)
	span, epoch, loc := runsSpan(runs)
	ax := newTimeAxis(span, epoch, loc)
	ax.apply(p)
	f.Legend = runsLegend(runs)
	any := false
	for i, r := range runs {
		if len(r.Time) == 0 || !anyNonZero(r.Power) {
			continue
		}
		xs, ys := cumulative(r.Time, r.Power)
		t0 := r.Time[0]
		for j := range xs {
			xs[j] = ax.x(xs[j], t0)
		}
		l, err := plotter.NewLine(xyOf(xs, ys, 1, 1.0/3.6e6)) // J → kWh
		if err != nil {
			return nil, err
		}
		l.Color = runColor(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		if f.Legend != nil {
			f.Legend.Add(lt.Entries[i], l)
		}
		any = true
	}
	if !any {
		return nil, nil
	}
	p.Y.Min = 0
	f.Plot = p
	return &f, nil
}

func anyNonZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 && !math.IsNaN(x) { // NaN: null, no power model
			return true
		}
	}
	return false
}
