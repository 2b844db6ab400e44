package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/calibrate"
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
				return run.BadInput(fmt.Errorf("--busy-share: want a share in [0, 1), got %s", sim.FormatNumber(busyShare)))
			}
			if minHours <= 0 {
				return run.BadInput(fmt.Errorf("--min-hours: want > 0, got %s", sim.FormatNumber(minHours)))
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
			loc := run.DisplayZone(cfg.TimeZone, a.Zone)
			if err := calibrate.WriteAvailability(out, a, rule, loc); err != nil {
				return run.Failed(err)
			}
			var hours float64
			for _, s := range a.Stretches {
				hours += (s.End - s.Start).Seconds() / 3600
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d stretches, %.0f h in all, %d node events → %s\n", a.Trace, len(a.Stretches), hours, len(a.Events), filepath.Join(out, "node-events.csv"))
			if n := len(a.Stretches); n > 0 && !a.Epoch.IsZero() {
				at := func(t sim.Time) string { return run.CalendarTime(a.Epoch, t, loc) }
				fmt.Fprintf(cmd.OutOrStdout(), "  first stretch %s to %s, last %s to %s (%s)\n", at(a.Stretches[0].Start), at(a.Stretches[0].End),
					at(a.Stretches[n-1].Start), at(a.Stretches[n-1].End), run.ZoneLabel(loc))
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
