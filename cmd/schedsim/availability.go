package main

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/report"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/availability"
)

// newAvailabilityCommand is `schedsim availability TRACE`: the stretches
// when the recorded machine cannot have been (wholly) available, as a
// node-events file for --node-events.
func newAvailabilityCommand() *cobra.Command {
	cfg := run.Default()
	var out string
	var busyShare, minHours float64
	cmd := &cobra.Command{
		Use:   "availability [TRACE]",
		Short: "Infer from a recorded schedule when the machine was not all there, as a node-events file",
		Long: `availability reads a trace that records when its jobs really started (SWF's wait field,
sacct's Start) and finds the stretches when the machine, or part of it, cannot have been
available: at most --busy-share of its processors busy while a job that would have fit in the
idle ones waited, for at least --min-hours. Each stretch's unavailable processors are the
capacity less what jobs started in it held at most (or what was busy at its end, if more);
its confidence is the share of it that no reservation for a waiting job can explain (past the
walltimes of the jobs running when it began). It writes, into --out:

  node-events.csv   drains of the last nodes for each stretch: replay --node-events FILE
  stretches.csv     start_s, end_s, hours, peak_busy_procs, unavailable_procs, drained_nodes, confidence
  availability.png  the recorded busy processors with the stretches shaded

The cluster is the replay's (--cluster, --platform, or the SWF header in --swf-model): a pool
model has one node, which only a stretch with nothing busy drains; use --swf-model nodes.

--time-zone is the site's zone, as for replay: a Slurm dump's local times are read in it, and
when the trace's calendar is known (an SWF header's UnixStartTime, sacct's dates) the figure's
axis and the printed first and last stretches are dates in it (default: the trace's own zone,
e.g. an SWF header's TimeZoneString; else UTC).

Exit status: 0 done, 2 bad input.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				cfg.Trace = args[0]
			}
			if busyShare < 0 || busyShare >= 1 {
				return run.BadInput(fmt.Errorf("--busy-share: want a share in [0, 1), got %g", busyShare))
			}
			if minHours <= 0 {
				return run.BadInput(fmt.Errorf("--min-hours: want > 0, got %g", minHours))
			}
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			rule := availability.Rule{BusyShare: busyShare, MinDuration: sim.SecondsToTime(minHours * 3600)}
			a, err := run.InferAvailability(&cfg, rule)
			if err != nil {
				return err
			}
			if out == "" {
				out = "availability"
			}
			loc := displayZone(cfg.TimeZone, a.Zone)
			if err := writeAvailability(out, a, rule, loc); err != nil {
				return run.Failed(err)
			}
			var hours float64
			for _, s := range a.Stretches {
				hours += (s.End - s.Start).Seconds() / 3600
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d stretches, %.0f h in all, %d node events → %s\n", a.Trace, len(a.Stretches), hours, len(a.Events), filepath.Join(out, "node-events.csv"))
			if n := len(a.Stretches); n > 0 && !a.Epoch.IsZero() {
				at := func(t sim.Time) string { return calendarTime(a.Epoch, t, loc) }
				fmt.Fprintf(cmd.OutOrStdout(), "  first stretch %s to %s, last %s to %s (%s)\n", at(a.Stretches[0].Start), at(a.Stretches[0].End),
					at(a.Stretches[n-1].Start), at(a.Stretches[n-1].End), zoneLabel(loc))
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&cfg.Cluster, "cluster", "", "cluster YAML file or slurm.conf (default: the trace's own)")
	fs.StringVar(&cfg.Platform, "platform", "", "Batsim/SimGrid platform XML instead of --cluster")
	fs.StringVar(&cfg.SWFModel, "swf-model", cfg.SWFModel, "cluster model for SWF traces: pool or nodes")
	fs.IntVar(&cfg.ProcsPerNode, "swf-procs-per-node", 0, "processors per node in the nodes model")
	fs.StringVar(&cfg.TraceFormat, "trace-format", "", "force the trace format")
	fs.StringVar(&cfg.TimeZone, "time-zone", "", "the site's IANA time zone: Slurm accounting's local times are read in it, and the figure's dates shown in it (default: the trace's own; else UTC)")
	fs.StringVar(&out, "out", "", "directory to write into (default availability)")
	fs.Float64Var(&busyShare, "busy-share", availability.DefaultRule.BusyShare, "an instant is suspect when at most this share of the processors is busy")
	fs.Float64Var(&minHours, "min-hours", availability.DefaultRule.MinDuration.Seconds()/3600, "keep stretches at least this many hours long")
	return cmd
}

// writeAvailability writes the three files of an inference into dir.
func writeAvailability(dir string, a *run.Availability, rule availability.Rule, loc *time.Location) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	comment := fmt.Sprintf("inferred by schedsim availability from %s: at most %g of the processors busy while a fitting job waited, for at least %g h",
		a.Trace, rule.BusyShare, rule.MinDuration.Seconds()/3600)
	if err := metrics.WriteFileAtomic(filepath.Join(dir, "node-events.csv"), func(w io.Writer) error {
		return availability.WriteEvents(w, a.Events, comment)
	}); err != nil {
		return err
	}
	if err := metrics.WriteFileAtomic(filepath.Join(dir, "stretches.csv"), func(w io.Writer) error {
		return availability.WriteStretches(w, a.Stretches, a.Nodes)
	}); err != nil {
		return err
	}
	p, err := availabilityFigure(a, loc)
	if err != nil {
		return err
	}
	return metrics.WriteFileAtomic(filepath.Join(dir, "availability.png"), func(w io.Writer) error {
		wt, err := p.WriterTo(12*vg.Inch, 4*vg.Inch, "png")
		if err != nil {
			return err
		}
		_, err = wt.WriteTo(w)
		return err
	})
}

// availabilityFigure draws the recorded busy processors (6-hour means)
// over days, or over dates in loc when the trace's epoch is known, with
// the inferred stretches shaded by their confidence.
func availabilityFigure(a *run.Availability, loc *time.Location) (*plot.Plot, error) {
	xOf := func(t sim.Time) float64 { return t.Seconds() / 86400 }
	if !a.Epoch.IsZero() {
		xOf = func(t sim.Time) float64 { return float64(a.Epoch.Unix()) + t.Seconds() }
	}
	type step struct {
		at sim.Time
		d  float64
	}
	var steps []step
	for _, j := range a.Jobs {
		s := max(j.Start, j.Submit)
		steps = append(steps, step{s, j.Procs}, step{max(j.End, s), -j.Procs})
	}
	slices.SortFunc(steps, func(x, y step) int {
		switch {
		case x.at < y.at:
			return -1
		case x.at > y.at:
			return 1
		}
		return 0
	})
	const bin = 6 * 3600 * sim.Second
	var pts plotter.XYs
	if len(steps) > 0 {
		busy, k := 0.0, 0
		for t := steps[0].at / bin * bin; t <= steps[len(steps)-1].at; t += bin {
			// the hour's mean: integrate the step function over [t, t+bin)
			area, at := 0.0, t
			for k < len(steps) && steps[k].at < t+bin {
				area += busy * (steps[k].at - at).Seconds()
				busy += steps[k].d
				at = steps[k].at
				k++
			}
			area += busy * (t + bin - at).Seconds()
			pts = append(pts, plotter.XY{X: xOf(t), Y: area / bin.Seconds()})
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: recorded busy processors and %d stretches inferred unavailable", a.Trace, len(a.Stretches))
	p.X.Label.Text = "day of the trace"
	if !a.Epoch.IsZero() {
		p.X.Label.Text = "date (" + zoneLabel(loc) + ")"
		p.X.Tick.Marker = report.CalendarTicker(loc)
	}
	p.Y.Label.Text = "processors"
	p.Y.Min, p.Y.Max = -0.08*a.Capacity, a.Capacity*1.3 // headroom for the legend
	for _, s := range a.Stretches {
		x0, x1 := xOf(s.Start), xOf(s.End)
		top := a.Capacity
		poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: top - s.Unavailable}, {X: x1, Y: top - s.Unavailable}, {X: x1, Y: top}, {X: x0, Y: top}})
		if err != nil {
			return nil, err
		}
		alpha := uint8(60 + 150*s.Confidence)
		poly.Color = color.NRGBA{R: 214, G: 39, B: 40, A: alpha}
		poly.LineStyle.Width = 0
		// A rug under the axis: stretches of a few hours in a year of
		// days are slivers above.
		rug, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: -0.07 * top}, {X: x1, Y: -0.07 * top}, {X: x1, Y: -0.02 * top}, {X: x0, Y: -0.02 * top}})
		if err != nil {
			return nil, err
		}
		rug.Color = color.NRGBA{R: 214, G: 39, B: 40, A: 255}
		rug.LineStyle.Color = rug.Color
		rug.LineStyle.Width = vg.Points(0.5)
		p.Add(poly, rug)
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.Color = color.NRGBA{R: 31, G: 119, B: 180, A: 255}
	line.Width = vg.Points(0.6)
	p.Add(line)
	capLine, err := plotter.NewLine(plotter.XYs{{X: pts[0].X, Y: a.Capacity}, {X: max(pts[len(pts)-1].X, pts[0].X+1), Y: a.Capacity}})
	if err != nil {
		return nil, err
	}
	capLine.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(capLine)
	p.Legend.Add("recorded busy processors (6-hour means)", line)
	p.Legend.Add("capacity", capLine)
	shade, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	shade.Color = color.NRGBA{R: 214, G: 39, B: 40, A: 160}
	shade.LineStyle.Width = 0
	p.Legend.Add("inferred unavailable processors (darker: more confident); bars under 0: where", shade)
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}

// calendarTime is trace time t as a date and minute in loc.
func calendarTime(epoch time.Time, t sim.Time, loc *time.Location) string {
	return epoch.Add(time.Duration(t.Seconds() * float64(time.Second))).In(loc).Format("2006-01-02 15:04 MST")
}

// zoneLabel names a zone: its IANA name, UTC for UTC.
func zoneLabel(loc *time.Location) string {
	if loc == nil || loc.String() == "" || loc.String() == "Local" {
		return "UTC"
	}
	return loc.String()
}
