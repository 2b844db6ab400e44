package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/sim/convert"
	"github.com/schedsim/schedsim/sim/run"
)

// convertFlags are the replay flags that say how to read a trace; convert
// takes them as replay does.
var convertFlags = []string{"trace-format", "swf-model", "swf-procs-per-node", "strict", "cluster", "platform", "max-hosts", "time-zone"}

func newConvertCommand() *cobra.Command {
	cfg := run.Default()
	var o convert.Options
	var quiet bool
	cmd := &cobra.Command{
		Use:   "convert TRACE --to OUT.{parquet,jsonl,csv}",
		Short: "Convert a trace of any format to the native format (Parquet, JSON Lines or CSV)",
		Long: `Convert a trace that replay reads (SWF, Batsim, native, and the other formats
of --trace-format) to the native format, schedsim-native v1: Parquet (.parquet),
JSON Lines (.jsonl, .ndjson) or CSV (.csv), the last two optionally gzipped (.gz).
Replaying the converted trace gives the same results as replaying the original
with the same flags.

The cluster a replay of the original would use without --cluster (an SWF header,
a Batsim nb_res, Alibaba's machine_meta), or the one --cluster or --platform
gives, goes with the trace: into the Parquet metadata, where replay finds it,
and to --cluster-out as a cluster file. Node events the trace records go to the
Parquet metadata and to --node-events-out as the CSV --node-events reads. When
the trace says when its time 0 was (an SWF header, Slurm accounting's dates in
--time-zone), that epoch and the site's time zone go to the Parquet metadata,
or to the first line of a JSON Lines or CSV file, so that the replay writes the
same calendar timestamps.

The output is written to a temporary file renamed at the end; a progress bar
shows on a terminal; one line sums up what was written and skipped.`,
		Args: wantArgs(1, 1, "one trace file", "schedsim convert TRACE.swf.gz --to trace.parquet"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.Trace = args[0]
			if o.To == "" {
				return run.BadInput(errors.New("--to: give the output file (.parquet, .jsonl or .csv)"))
			}
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			stderr := cmd.ErrOrStderr()
			if !quiet && run.IsTerminal(os.Stderr) && stderr == os.Stderr {
				o.Progress = stderr
			}
			res, err := convert.Convert(&cfg, o)
			if err != nil {
				return err
			}
			if !quiet {
				printConvertSummary(cmd.OutOrStdout(), res, o)
			}
			return nil
		},
	}
	replayFlags := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	cfg.BindFlags(replayFlags)
	for _, name := range convertFlags {
		cmd.Flags().AddFlag(replayFlags.Lookup(name))
	}
	cmd.Flags().StringVar(&o.To, "to", "", "output trace: .parquet, .jsonl or .csv (.jsonl.gz, .csv.gz)")
	cmd.Flags().StringVar(&o.ClusterOut, "cluster-out", "", "also write the trace's cluster to this cluster YAML file")
	cmd.Flags().StringVar(&o.NodeEventsOut, "node-events-out", "", "also write the trace's node events to this CSV (the --node-events format)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but errors")
	return cmd
}

// printConvertSummary prints the one-line summary, and a note when the
// trace's cluster was not kept.
func printConvertSummary(out io.Writer, r *convert.Result, o convert.Options) {
	skips := r.Skips
	fmt.Fprintf(out, "%s (%s) → %s: %s written, %s skipped", r.Trace, r.Format, o.To, words.Count(r.Written, "job"), words.Count(skips.Total, "record"))
	if skips.First != nil {
		fmt.Fprintf(out, " (first: %v)", skips.First)
	}
	switch {
	case r.Nodes > 0 && r.ClusterKept != "":
		fmt.Fprintf(out, "; cluster of %s (%s) %s", words.Count(r.Nodes, "node"), r.Cluster, r.ClusterKept)
	case r.Nodes > 0:
		fmt.Fprintf(out, "; cluster of %s (%s) not kept: give --cluster-out FILE", words.Count(r.Nodes, "node"), r.Cluster)
	}
	if n := r.NodeEvents; n > 0 {
		fmt.Fprintf(out, "; %d node events", n)
		if o.NodeEventsOut != "" {
			fmt.Fprintf(out, " in %s", o.NodeEventsOut)
		}
	}
	fmt.Fprintln(out)
}
