package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedsim/schedsim/metrics"
)

// calibrationWaits pairs, for the jobs table's measured jobs that have a
// recorded start and started in the run, the run's wait with the recorded
// one (both from the trace's submit), as the summary's calib_* columns do.
func calibrationWaits(jobs *table) (sim, recorded []float64) {
	rec := jobs.num["recorded_start_s"]
	measured := jobs.text["measured"]
	submit, start := jobs.num["submit_s"], jobs.num["start_s"]
	for i, rs := range rec {
		if math.IsNaN(rs) || math.IsNaN(start[i]) || (measured != nil && measured[i] == "false") {
			continue
		}
		sim = append(sim, start[i]-submit[i])
		recorded = append(recorded, rs-submit[i])
	}
	return sim, recorded
}

// recordedDash is the recorded waits' line: black and dashed, the same in
// every panel, beside the run's own colour.
var recordedDash = []vg.Length{vg.Points(4), vg.Points(3)}

// calibrationFigure draws, for each run whose jobs have recorded starts,
// the CDF of its simulated waits over the recorded ones, one panel per
// run, each titled with the run's KS distance and p95 wait ratio from its
// summary. ok is false when no run has recorded starts: there is nothing
// to calibrate against, and no figure.
func calibrationFigure(runs []*Run, lt legendText) (f Figure, ok bool, err error) {
	f = Figure{Name: "calibration", Title: "Simulated against recorded waits",
		Caption: "Per run, the CDF of the waits of the jobs whose start the trace records, as simulated (the run's " +
			"colour) and as recorded (black, dashed), log scale, waits under 1 s at 1 s. KS: the largest vertical " +
			"gap between the two (calib_wait_ks); p95 ratio: simulated ÷ recorded p95 wait (calib_p95_wait_ratio)."}
	var panels []*plot.Plot
	var recordedLine *plotter.Line
	leg := outsideLegend()
	for i, r := range runs {
		// A run whose summary has no calibration (its transforms moved
		// the jobs, or too few have a recorded start) is not drawn: its
		// few recorded jobs are not the schedule.
		if len(r.SimWait) == 0 || r.SummaryVals[metrics.ColCalibWaitKS] == "" {
			continue
		}
		title := lt.Entries[i]
		if title == "" {
			title = r.Label
		}
		title += calibrationNumbers(r)
		p := newPlot(title, "wait (log scale)", "share of jobs")
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = coarseDurationTicks{}
		p.Y.Tick.Marker = percentTicks{scale: 100}
		longest := 10.0
		for k, waits := range [][]float64{r.SimWait, r.RecordedWait} {
			xs := make([]float64, len(waits))
			for j, w := range waits {
				xs[j] = math.Max(w, 1)
				longest = math.Max(longest, xs[j])
			}
			qs, ps := cdfPoints(xs)
			l, err := plotter.NewLine(xyOf(qs, ps, 1, 1))
			if err != nil {
				return f, false, err
			}
			l.Width = vg.Points(1.5)
			l.StepStyle = plotter.PostStep
			l.Color = runColor(i)
			if k == 1 {
				l.Color, l.Dashes = color.Black, recordedDash
			}
			p.Add(l)
			switch {
			case k == 0:
				leg.Add("simulated: "+title[:len(title)-len(calibrationNumbers(r))], l)
			case len(panels) == 0:
				recordedLine = l
			}
		}
		p.X.Min, p.X.Max = 1, longest
		p.Y.Min, p.Y.Max = 0, 1
		panels = append(panels, p)
	}
	if recordedLine != nil {
		leg.Add("recorded (the trace)", recordedLine)
	}
	f.Legend = leg
	switch len(panels) {
	case 0:
		return f, false, nil
	case 1:
		f.Plot = panels[0]
		f.Plot.Title.Text = f.Title + "\n" + f.Plot.Title.Text
		f.Plot.X.Tick.Marker = durationTicks{}
		return f, true, nil
	}
	cols := min(len(panels), 3)
	for i := 0; i < len(panels); i += cols {
		row := make([]*plot.Plot, cols)
		copy(row, panels[i:min(i+cols, len(panels))])
		f.Panels = append(f.Panels, row)
	}
	return f, true, nil
}

// calibrationNumbers is the panel title's second line: the run's KS
// distance and p95 wait ratio, as its summary gives them.
func calibrationNumbers(r *Run) string {
	var parts []string
	for _, c := range []struct{ col, name string }{{metrics.ColCalibWaitKS, "KS"}, {metrics.ColCalibP95WaitRatio, "p95 ratio"}} {
		if v, err := strconv.ParseFloat(r.SummaryVals[c.col], 64); err == nil && !math.IsNaN(v) {
			parts = append(parts, fmt.Sprintf("%s %.3g", c.name, v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	s := "\n" + parts[0]
	for _, p := range parts[1:] {
		s += " · " + p
	}
	return s
}
