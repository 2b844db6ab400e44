package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics/compare"
	"github.com/schedsim/schedsim/report"
	"github.com/schedsim/schedsim/sim/run"
)

// newReportCommand is `schedsim report DIR… --out DIR`: the comparative
// figures and index.html of package report, for run, sweep, tune and
// openb directories. A directory that is none of them is bad input (exit
// 2, the message names it and the missing file), and so is an option the
// figures cannot use; a failed write is a failed run (exit 1).
func newReportCommand() *cobra.Command {
	var out, window, zone string
	var quiet bool
	var targets []string
	var opts report.Options
	cmd := &cobra.Command{
		Use:   "report DIR… --out DIR",
		Short: "Comparative figures (PNG and SVG) and a self-contained index.html for run, sweep, tune and openb directories",
		Long: "report reads run directories written by replay and draws, one line, box or bar per run: the wait-time CDF,\n" +
			"bounded-slowdown box plots, per-tenant fairness bars (usage ÷ share when shares are configured),\n" +
			"utilization, queue length, power, fragmentation and nodes asleep over time (bucket means with the\n" +
			"range of finer means as a band), the cumulative energy and a Gantt chart of each run, with a summary\n" +
			"table of the metrics a planner reads first. For a sweep directory (written by sweep: its summary.csv\n" +
			"has a run column) it draws weight heatmaps, one panel per value of the other swept parameters, and the\n" +
			"Pareto front of mean wait, fairness and energy; for tune output the evaluated weights coloured by the\n" +
			"objective; for openb output the GPU allocation ratio against the arrived GPU per policy. PNG and SVG,\n" +
			"plus index.html with every figure inline (it works from a file:// URL).\n\n" +
			"With a target (--target, or the sweeps' experiment target:), index.html opens with the answer: each\n" +
			"replica's value per scenario against the target. With two or more sweeps, it shows the effects of each\n" +
			"against the first, computed as compare computes them, and writes them as effects.csv.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return run.BadInput(fmt.Errorf("report: give at least one run, sweep or openb directory"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				out = defaultOut("report", args[0])
			}
			if window != "" {
				w, err := report.ParseWindow(window)
				if err != nil {
					return run.BadInput(err)
				}
				opts.GanttWindow = w
			}
			if zone != "" {
				loc, err := time.LoadLocation(zone)
				if err != nil || zone == "Local" {
					return run.BadInput(fmt.Errorf("--time-zone: unknown time zone %q (want an IANA name such as Europe/Stockholm, or UTC)", zone))
				}
				opts.TimeZone = loc
			}
			in, err := report.LoadInputs(args)
			if err != nil {
				return run.BadInput(err)
			}
			if err := report.CheckOptions(in, opts); err != nil {
				return run.BadInput(err)
			}
			if opts.Answers, opts.Comparisons, err = report.Comparisons(in, targets); err != nil {
				return run.BadInput(err)
			}
			opts.Differs = compare.DefaultTolerances().Differs
			written, err := report.Write(in, out, opts)
			if err != nil {
				return run.Failed(err)
			}
			if !quiet {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s; open %s\n", words.Count(len(written), "file"), written[len(written)-1])
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "report directory (created if missing; default runs/report-<first input's name>)")
	f.BoolVar(&quiet, "quiet", false, "print nothing but errors")
	f.StringSliceVar(&opts.HeatmapMetrics, "heatmap-metric", nil,
		"sweep summary columns drawn as weight heatmaps, one figure each (default: "+strings.Join(report.DefaultHeatmapMetrics, ",")+", those the sweep has)")
	f.StringSliceVar(&opts.HeatmapWeights, "heatmap-weights", nil,
		"the two swept weights on the heatmaps' axes, e.g. w_age,w_size (default: the two with the most values)")
	f.IntVar(&opts.Size.Width, "width", 0, fmt.Sprintf("figure width in pixels (default %d at the default dpi)", report.DefaultSize.Width))
	f.IntVar(&opts.Size.Height, "height", 0, fmt.Sprintf("figure height in pixels (default %d at the default dpi)", report.DefaultSize.Height))
	f.IntVar(&opts.Size.DPI, "dpi", 0, fmt.Sprintf("pixels per inch of the PNGs; alone it keeps the figures' size in inches, sharper (default %d)", report.DefaultSize.DPI))
	f.StringVar(&window, "gantt-window", "", "span of the Gantt charts since each run's first event, FROM,TO in seconds or with a unit: 2d,3d (default: the whole run up to 2000 jobs, else its busiest day by jobs started)")
	f.StringVar(&zone, "time-zone", "", "IANA zone of the calendar axes, e.g. Europe/Stockholm (default: each trace's own, from run.yaml; else UTC)")
	f.StringVar(&opts.GanttColor, "gantt-color", "user", "colour the Gantt bars by user or state")
	f.StringArrayVar(&targets, "target", nil, `a planner's question over the sweeps, "METRIC OP VALUE" ("p95_wait_s <= 3600"), drawn first (default: the sweeps' experiment target)`)
	return cmd
}
