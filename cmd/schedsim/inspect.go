package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/report"
	"github.com/schedsim/schedsim/sim/run"
)

// newInspectCommand is `schedsim inspect TRACE`: statistics of a
// trace, read once, streaming, as a text summary on stdout and, with
// --out, summary.txt and PNG figures.
func newInspectCommand() *cobra.Command {
	cfg := run.Default()
	var out string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "inspect TRACE [--cluster C] [--out DIR]",
		Short: "Trace statistics: job count, span, arrival rate, runtime/size/request distributions, offered load",
		Long: `inspect reads a trace once (any format replay reads) and prints: the job and task counts, the
submit span, the arrival rate and its daily profile, size classes, quantiles of runtime, walltime,
tasks and per-task requests, and the offered load against the cluster (the trace's own, or --cluster):
Σ tasks · request · runtime ÷ (capacity · span) per resource. With --out DIR it also writes
summary.txt and PNG figures (arrival rate over time, arrivals by hour of day, runtime CDF, job
sizes, one request CDF per resource).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return run.BadInput(fmt.Errorf("inspect: give one trace file (got %d arguments)", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.Trace = args[0]
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			return runInspect(&cfg, out, quiet, cmd.OutOrStdout())
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&cfg.TraceFormat, "trace-format", "", "force the trace format (as replay's --trace-format)")
	fs.StringVar(&cfg.Cluster, "cluster", "", "cluster YAML for the offered load (default: the trace's own cluster, if it has one)")
	fs.StringVar(&cfg.Platform, "platform", "", "Batsim/SimGrid platform XML instead of --cluster")
	fs.IntVar(&cfg.MaxHosts, "max-hosts", 0, "keep only the first N compute hosts of --platform (0: all)")
	fs.StringVar(&cfg.SWFModel, "swf-model", cfg.SWFModel, "cluster model for SWF traces: pool or nodes")
	fs.IntVar(&cfg.ProcsPerNode, "swf-procs-per-node", 0, "processors per node in the nodes model")
	fs.BoolVar(&cfg.Strict, "strict", false, "stop at the first bad trace record instead of skipping and counting it")
	fs.StringVar(&cfg.TimeZone, "time-zone", "", "IANA zone of hours and days (default: the trace's own, e.g. an SWF header's TimeZoneString; else UTC); for Slurm accounting also the zone its times are read in")
	fs.StringVar(&out, "out", "", "also write summary.txt and the PNG figures into this directory")
	fs.BoolVar(&quiet, "quiet", false, "print nothing but errors")
	return cmd
}

func runInspect(cfg *run.Spec, out string, quiet bool, stdout io.Writer) error {
	w, ownCluster, err := run.OpenForInspection(cfg)
	if err != nil {
		return err
	}
	defer w.Close()
	stats := report.NewTraceStats()
	stats.SetCalendar(w.Epoch, run.DisplayZone(cfg.TimeZone, w.TimeZone))
	for {
		j, err := w.Source.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return run.BadInput(err)
		}
		stats.Add(j)
	}
	info := report.TraceInfo{Name: cfg.Trace, Format: w.Format}
	if w.Skips != nil {
		info.Skips = w.Skips()
	}
	if ownCluster {
		info.Cluster, info.Nodes, info.Capacity = w.Cluster, len(w.Nodes), report.LeafCapacity(w.Nodes)
	}
	if !quiet {
		if err := report.WriteInspectText(stdout, stats, info); err != nil {
			return run.Failed(err)
		}
	}
	if out != "" {
		written, err := report.WriteInspect(out, stats, info)
		if err != nil {
			return run.Failed(fmt.Errorf("inspect: %w", err))
		}
		if !quiet {
			fmt.Fprintf(stdout, "\nwrote %s to %s\n", words.Count(len(written), "file"), out)
		}
	}
	return nil
}
