package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// maxArrivalBars bounds the bins drawn in the arrival-rate figure.
const maxArrivalBars = 500

// InspectFigures draws the figures of `schedsim inspect`: arrival rate
// over time, arrivals by hour of day, the runtime CDF, job sizes, and one
// CDF of the per-task request per resource.
func InspectFigures(s *TraceStats) ([]Figure, error) {
	if s.Jobs == 0 {
		return nil, nil
	}
	figs := []Figure{arrivalRate(s), arrivalsByHour(s)}
	if s.Epoch != nil {
		figs = append(figs, arrivalsByWeekday(s))
	}
	f, err := cdfFigure("runtime_cdf", "Runtime CDF", "runtime (s, log scale)", s.Runtime, 1,
		"Share of jobs whose runtime is at most x (runtimes under 1 s are drawn at 1 s).")
	if err != nil {
		return nil, err
	}
	figs = append(figs, f, sizeClasses(s))
	for i, r := range s.Resources {
		if internalResource(r.Name) || r.PerTask.Max == 0 {
			continue // a tag, or nothing requested: no distribution to draw
		}
		stem := fileSafe(r.Name)
		if stem != r.Name { // two names could map to one file
			stem += "_" + strconv.Itoa(i)
		}
		// A log axis from the smallest request when all are positive.
		logFloor, scale := 0.0, "linear"
		if r.PerTask.Min > 0 {
			logFloor, scale = r.PerTask.Min, "log scale"
		}
		f, err := cdfFigure("request_"+stem+"_cdf", "Per-task request of "+r.Name,
			fmt.Sprintf("%s per task (units of the resource, %s)", r.Name, scale), r.PerTask, logFloor,
			fmt.Sprintf("Share of the %s requesting %s whose tasks ask for at most x each.", words.Count(int(r.Jobs), "job"), r.Name))
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// WriteInspect writes the text summary (summary.txt) and one PNG per
// figure into out, each atomically. It returns the paths written.
func WriteInspect(out string, s *TraceStats, info TraceInfo) ([]string, error) {
	figs, err := InspectFigures(s)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var written []string
	write := func(name string, fill func(io.Writer) error) error {
		path := filepath.Join(out, name)
		if err := metrics.WriteFileAtomic(path, fill); err != nil {
			return err
		}
		written = append(written, path)
		return nil
	}
	for _, f := range figs {
		data, err := renderPNG(f)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		if err := write(f.Name+".png", func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return nil, err
		}
	}
	var text bytes.Buffer
	if err := WriteInspectText(&text, s, info); err != nil {
		return nil, err
	}
	if err := write("summary.txt", func(w io.Writer) error { _, err := w.Write(text.Bytes()); return err }); err != nil {
		return nil, err
	}
	return written, nil
}

// arrivalRate draws jobs per hour over time, one flat step per bin (the
// stats' bins, merged until there are at most maxArrivalBars).
func arrivalRate(s *TraceStats) Figure {
	counts, width := s.Arrivals.Counts, s.Arrivals.Width.Seconds()
	for len(counts) > maxArrivalBars {
		merged := make([]int64, (len(counts)+1)/2)
		for i, c := range counts {
			merged[i/2] += c
		}
		counts, width = merged, width*2
	}
	unit, unitName := 3600.0, "h"
	if s.Span().Seconds() > 3*86400 {
		unit, unitName = 86400, "days"
	}
	f := Figure{Name: "arrivals", Title: "Arrival rate over time",
		Caption: fmt.Sprintf("Jobs submitted per hour, averaged over bins of %s h.", num(width/3600))}
	p := newPlot(f.Title, "time since the first submit ("+unitName+")", "arrivals (jobs/h)")
	x := func(off float64) float64 { return off / unit }
	if s.Epoch != nil {
		ax := newTimeAxis(s.Span().Seconds(), s.Epoch, s.Loc)
		ax.apply(p)
		first := s.First.Seconds()
		x = func(off float64) float64 { return ax.x(first+off, first) }
	}
	pts := make(plotter.XYs, 0, 2*len(counts))
	for i, c := range counts {
		rate := float64(c) / (width / 3600)
		pts = append(pts, plotter.XY{X: x(float64(i) * width), Y: rate}, plotter.XY{X: x(float64(i+1) * width), Y: rate})
	}
	l, _ := plotter.NewLine(pts) // finite points: never an error
	l.Color = runColor(0)
	l.Width = vg.Points(1)
	p.Add(l)
	p.Y.Min = 0
	f.Plot = p
	return f
}

// arrivalsByHour draws the share of jobs by the hour of day of their
// submit time: the daily cycle.
func arrivalsByHour(s *TraceStats) Figure {
	f := Figure{Name: "arrivals_by_hour", Title: "Arrivals by hour of day",
		Caption: "Share of jobs by the hour of submit_s modulo 24 h (the trace gives no calendar: hour 0 starts at time 0)."}
	xlabel := "hour of day since time 0 (h)"
	if s.Epoch != nil {
		f.Caption = "Share of jobs by the local hour of their submit: the daily cycle."
		xlabel = "hour of day (" + zoneName(s.Loc) + ")"
	}
	labels := make([]string, 24)
	for h := range labels {
		labels[h] = strconv.Itoa(h)
	}
	f.Plot = shareBars(f.Title, xlabel, s.HourOfDay[:], s.Jobs, labels)
	return f
}

// arrivalsByWeekday draws the share of jobs by the local day of the week
// of their submit: the weekly cycle.
func arrivalsByWeekday(s *TraceStats) Figure {
	f := Figure{Name: "arrivals_by_weekday", Title: "Arrivals by day of week",
		Caption: "Share of jobs by the local day of the week of their submit: the weekly cycle."}
	f.Plot = shareBars(f.Title, "day of week ("+zoneName(s.Loc)+")", s.DayOfWeek[:], s.Jobs, weekdays)
	return f
}

// sizeClasses draws the share of jobs by size class: 1 task, 2, 3–4, 5–8, ….
func sizeClasses(s *TraceStats) Figure {
	f := Figure{Name: "sizes", Title: "Job sizes",
		Caption: "Share of jobs by number of tasks, in powers of two (class k holds 2^(k−1) + 1 … 2^k tasks)."}
	labels := make([]string, len(s.SizeClasses))
	for k := range s.SizeClasses {
		switch hi := 1 << k; {
		case k <= 1:
			labels[k] = strconv.Itoa(hi)
		default:
			labels[k] = fmt.Sprintf("%d–%d", hi/2+1, hi)
		}
	}
	f.Plot = shareBars(f.Title, "tasks per job", s.SizeClasses, s.Jobs, labels)
	return f
}

// shareBars plots counts of jobs as shares of all the trace's jobs, one
// labelled bar each.
func shareBars(title, xlabel string, counts []int64, jobs int64, labels []string) *plot.Plot {
	p := newPlot(title, xlabel, "share of jobs (%)")
	shares := make(plotter.Values, len(counts))
	for i, c := range counts {
		shares[i] = 100 * float64(c) / float64(jobs)
	}
	addBars(p, shares, labels)
	return p
}

// addBars adds one bar per value, labelled, in the first run colour.
func addBars(p *plot.Plot, vals plotter.Values, labels []string) {
	width := vg.Points(math.Max(4, math.Min(30, 400/float64(len(vals)))))
	bars, err := plotter.NewBarChart(vals, width)
	if err == nil { // only fails on NaN or infinite values
		bars.Color = lighten(runColor(0))
		bars.LineStyle.Color = runColor(0)
		p.Add(bars)
	}
	p.NominalX(labels...)
	p.Y.Min = 0
}

// cdfFigure draws the empirical CDF of a sample, on a log x axis from
// logFloor when logFloor > 0 (smaller values are drawn at logFloor), else
// on a linear one.
func cdfFigure(name, title, xlabel string, sm *Sample, logFloor float64, caption string) (Figure, error) {
	f := Figure{Name: name, Title: title, Caption: caption}
	p := newPlot(title, xlabel, "share of jobs")
	xs := append([]float64(nil), sm.Values()...)
	logX := logFloor > 0
	if logX {
		for i := range xs {
			xs[i] = math.Max(xs[i], logFloor)
		}
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	qs, ps := cdfPoints(xs)
	if len(qs) > 0 {
		l, err := plotter.NewLine(xyOf(qs, ps, 1, 1))
		if err != nil {
			return f, err
		}
		l.Color = runColor(0)
		l.Width = vg.Points(1.5)
		l.StepStyle = plotter.PostStep
		p.Add(l)
	}
	if len(xs) > 0 && xs[0] == xs[len(xs)-1] {
		// One value: gonum would widen the axis by ±1, to 0 on a log
		// scale; widen it around the value instead.
		if logX {
			p.X.Min, p.X.Max = xs[0]/2, xs[0]*2
		} else {
			p.X.Min, p.X.Max = xs[0]-1, xs[0]+1
		}
	}
	if !sm.Exact() {
		p.Title.Text += fmt.Sprintf(" (sample of %d)", len(xs))
	}
	p.Y.Min, p.Y.Max = 0, 1
	f.Plot = p
	return f, nil
}

// fileSafe keeps letters, digits, '-' and '_' of a resource name for a
// file name; anything else becomes '_'.
func fileSafe(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// renderPNG renders f as PNG; a panic inside gonum/plot (an axis it cannot
// draw) becomes an error naming the figure.
func renderPNG(f Figure) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return f.render("png")
}
