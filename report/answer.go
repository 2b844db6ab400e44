package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/metrics"
)

// Answer is a planner's question answered over scenarios, as `schedsim
// compare --target` prints it: the report draws it first, as a figure and
// its sentence. The caller (the CLI) computes it with package compare.
type Answer struct {
	Target    string // "p95_wait_s <= 3600"
	Metric    string
	Op        string  // <=, <, >= or >
	Value     float64 // the target's threshold
	Sentence  string  // "no — p95_wait_s <= 3600? plus20 meets it in 0 of 5 replicas (mean 25.9 h)"
	Scenarios []AnswerScenario
}

// AnswerScenario is one scenario (a sweep, or one of its groups) of an
// Answer: each replica's value, the replicas meeting the target, and the
// mean with its 95 % interval (NaN when there is none).
type AnswerScenario struct {
	Name         string
	Values       []float64 // NaN when a replica has no value
	Met          int
	Mean, Lo, Hi float64
}

// Effect is one row of the report's table of effects: the change of a
// metric between two sets of runs, with its interval, as compare computes
// it.
type Effect struct {
	Metric, Group, Base, Candidate string
	BaseMean, CandMean             float64
	RelPct, LoPct, HiPct           float64 // NaN when not defined
	Interval                       string  // "paired t", "Welch t", or why there is none
	N                              string  // replicas a side, "5" or "5/4"
	Verdict                        string
}

// answerFigure draws each scenario's replicas as dots, their mean and
// interval as a bar, and the target as a dashed line: the figure a planner
// reads the answer from.
func answerFigure(a Answer, index int) (Figure, error) {
	name := "answer"
	if index > 0 {
		name = fmt.Sprintf("answer%d", index+1)
	}
	unit, scale := metricUnit(a.Metric)
	op := strings.NewReplacer("<=", "≤", ">=", "≥").Replace(a.Op)
	goal := fmt.Sprintf("%s %s %s %s", a.Metric, op, strconv.FormatFloat(a.Value*scale, 'g', 4, 64), unit)
	f := Figure{Name: name, Title: goal + " in every replica?",
		Caption: "Each replica's " + a.Metric + " per scenario (dots), their mean and 95 % t-interval (bar), and the target " +
			"(dashed): the answer holds only if every replica meets it."}
	p := newPlot(f.Title, "", a.Metric+" ("+unit+")")
	p.Legend.Top, p.Legend.Left = true, false
	var names []string
	top := a.Value * scale
	for i, s := range a.Scenarios {
		names = append(names, s.Name)
		var pts plotter.XYs
		for j, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			// Spread the dots across the scenario's slot so that equal
			// values stay visible.
			dx := 0.0
			if len(s.Values) > 1 {
				dx = 0.3 * (float64(j)/float64(len(s.Values)-1) - 0.5)
			}
			pts = append(pts, plotter.XY{X: float64(i) + dx, Y: v * scale})
			top = math.Max(top, v*scale)
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return f, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: runColor(i), Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		if !math.IsNaN(s.Mean) {
			bar, err := plotter.NewLine(plotter.XYs{{X: float64(i) - 0.25, Y: s.Mean * scale}, {X: float64(i) + 0.25, Y: s.Mean * scale}})
			if err != nil {
				return f, err
			}
			bar.Width, bar.Color = vg.Points(2), color.Black
			p.Add(bar)
		}
		if !math.IsNaN(s.Lo) {
			iv, err := plotter.NewLine(plotter.XYs{{X: float64(i), Y: s.Lo * scale}, {X: float64(i), Y: s.Hi * scale}})
			if err != nil {
				return f, err
			}
			iv.Width, iv.Color = vg.Points(1.5), color.Black
			p.Add(iv)
			top = math.Max(top, s.Hi*scale)
		}
	}
	target, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: a.Value * scale}, {X: float64(len(a.Scenarios)) - 0.5, Y: a.Value * scale}})
	if err != nil {
		return f, err
	}
	target.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	target.Width, target.Color = vg.Points(1.5), color.Gray{Y: 90}
	p.Add(target)
	p.Legend.Add("target: "+goal, target)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(a.Scenarios))-0.5
	p.Y.Min, p.Y.Max = 0, top*1.1
	p.Y.Tick.Marker = cleanTicks{}
	f.Plot = p
	return f, nil
}

// metricUnit is how a metric is shown on an axis: seconds as hours, a
// fraction as %, anything else as is.
func metricUnit(metric string) (unit string, scale float64) {
	switch {
	case strings.HasSuffix(metric, "_s"):
		return "h", 1.0 / 3600
	case strings.HasPrefix(metric, metrics.ColUtilization):
		return "%", 100
	}
	return "value", 1
}

// effectCells are an Effect's cells in the report's table: the change and
// its interval in %, as compare prints them.
func effectCells(e Effect) []string {
	pct := func(v float64) string {
		if math.IsNaN(v) {
			return "n/a"
		}
		return fmt.Sprintf("%+.2f %%", v)
	}
	ci := e.Interval
	if !math.IsNaN(e.LoPct) {
		ci = "[" + pct(e.LoPct) + ", " + pct(e.HiPct) + "] (" + e.Interval + ")"
	}
	return []string{e.Metric, e.Group, valueCell(e.Metric, e.BaseMean), valueCell(e.Metric, e.CandMean), pct(e.RelPct), ci, e.N, e.Verdict}
}

// valueCell prints a metric's value in its axis unit (metricUnit), with
// four significant digits and no exponent.
func valueCell(metric string, v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	unit, scale := metricUnit(metric)
	v *= scale
	digits := 0
	if a := math.Abs(v); a > 0 && a < 1000 {
		digits = min(6, 3-int(math.Floor(math.Log10(a))))
	}
	text := strconv.FormatFloat(v, 'f', digits, 64)
	if unit == "value" {
		return text
	}
	return text + " " + unit
}
