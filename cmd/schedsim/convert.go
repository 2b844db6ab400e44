package main

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/native"
)

// convertFlags are the replay flags that say how to read a trace; convert
// takes them as replay does.
var convertFlags = []string{"trace-format", "swf-model", "swf-procs-per-node", "strict", "cluster", "platform", "max-hosts", "time-zone"}

// convertOptions are convert's own flags.
type convertOptions struct {
	to         string // output file; its extension picks the encoding
	clusterOut string // where to write the cluster as a cluster file
	eventsOut  string // where to write the node events as --node-events CSV
	quiet      bool
}

func newConvertCommand() *cobra.Command {
	cfg := run.Default()
	var o convertOptions
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
			if o.to == "" {
				return run.BadInput(errors.New("--to: give the output file (.parquet, .jsonl or .csv)"))
			}
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			return runConvert(&cfg, o, cmd.ErrOrStderr(), cmd.OutOrStdout())
		},
	}
	replayFlags := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	cfg.BindFlags(replayFlags)
	for _, name := range convertFlags {
		cmd.Flags().AddFlag(replayFlags.Lookup(name))
	}
	cmd.Flags().StringVar(&o.to, "to", "", "output trace: .parquet, .jsonl or .csv (.jsonl.gz, .csv.gz)")
	cmd.Flags().StringVar(&o.clusterOut, "cluster-out", "", "also write the trace's cluster to this cluster YAML file")
	cmd.Flags().StringVar(&o.eventsOut, "node-events-out", "", "also write the trace's node events to this CSV (the --node-events format)")
	cmd.Flags().BoolVar(&o.quiet, "quiet", false, "print nothing but errors")
	return cmd
}

// outputEncoding returns the encoding the output name asks for, and
// whether it is gzipped.
func outputEncoding(path string) (string, bool, error) {
	name := strings.ToLower(filepath.Base(path))
	gz := strings.HasSuffix(name, ".gz")
	name = strings.TrimSuffix(name, ".gz")
	switch ext := filepath.Ext(name); {
	case ext == ".parquet" && !gz:
		return "parquet", false, nil
	case ext == ".jsonl", ext == ".ndjson":
		return "jsonl", gz, nil
	case ext == ".csv":
		return "csv", gz, nil
	}
	return "", false, fmt.Errorf("--to %s: want a .parquet, .jsonl, .ndjson or .csv file (the last three optionally .gz)", path)
}

// openForConvert opens the trace with the cluster it carries, else the
// one --cluster or --platform gives, else none.
func openForConvert(c *run.Spec) (*run.Workload, error) {
	w, err := run.OpenTrace(c)
	if err != nil {
		return nil, err
	}
	if w.Nodes == nil && (c.Cluster != "" || c.Platform != "") {
		if err := w.LoadCluster(c); err != nil {
			w.Close()
			return nil, run.BadInput(err)
		}
	}
	return w, nil
}

// runConvert reads the trace once to learn the columns (Parquet and CSV
// need them before the first row), then again to write it. Neither pass
// holds more than a row group of jobs.
func runConvert(c *run.Spec, o convertOptions, stderr, stdout io.Writer) error {
	enc, gz, err := outputEncoding(o.to)
	if err != nil {
		return run.BadInput(err)
	}
	if same, _ := sameFile(c.Trace, o.to); same {
		return run.BadInput(fmt.Errorf("--to %s is the trace itself", o.to))
	}
	w, err := openForConvert(c)
	if err != nil {
		return err
	}
	bar := newConvertBar(w.Records, enc, o.quiet, stderr)
	var cols native.Columns
	if enc != "jsonl" {
		bar.pass("reading")
		err := eachJob(w, bar, func(j *sim.Job) error { return cols.Add(carriedLabels(j)) })
		w.Close()
		if err != nil {
			return err
		}
		if w, err = openForConvert(c); err != nil {
			return err
		}
	}
	defer w.Close()
	meta := &native.Embedded{Cluster: w.Nodes, Defaults: w.Defaults, ClusterSource: w.Cluster, NodeEvents: w.NodeEvents,
		Source: fmt.Sprintf("%s (%s, sha256 %s)", filepath.Base(w.Name), w.Format, w.SHA256),
		Epoch:  w.Epoch, TimeZone: w.TimeZone}
	written := 0
	bar.pass("writing")
	err = metrics.WriteFileAtomic(o.to, func(out io.Writer) error {
		var z *gzip.Writer
		if gz {
			z = gzip.NewWriter(out)
			out = z
		}
		if enc != "parquet" {
			// The text encodings carry the calendar in their first line
			// (the Parquet writer puts it in the metadata).
			line, err := native.AppendCalendarLine(nil, w.Epoch, w.TimeZone)
			if err != nil {
				return err
			}
			if _, err := out.Write(line); err != nil {
				return err
			}
		}
		var write func(*sim.Job) error
		var finish func() error
		switch enc {
		case "parquet":
			pw, err := native.NewParquetWriter(out, cols, meta)
			if err != nil {
				return err
			}
			write, finish = pw.Write, pw.Close
		case "csv":
			cw, err := native.NewCSVWriter(out, cols)
			if err != nil {
				return err
			}
			write, finish = cw.Write, cw.Flush
		default:
			var buf []byte
			write = func(j *sim.Job) (err error) {
				if buf, err = native.AppendJSONL(buf[:0], j); err == nil {
					_, err = out.Write(buf)
				}
				return err
			}
			finish = func() error { return nil }
		}
		err := eachJob(w, bar, func(j *sim.Job) error {
			written++
			return write(carriedLabels(j))
		})
		if err != nil {
			return err
		}
		if err := finish(); err != nil {
			return err
		}
		if z != nil {
			return z.Close()
		}
		return nil
	})
	bar.finish()
	if err != nil {
		var pe *traces.ParseError
		if errors.As(err, &pe) || errors.Is(err, traces.ErrRecordTooLong) {
			return run.BadInput(err)
		}
		return run.Failed(fmt.Errorf("convert %s: %w", w.Name, err))
	}
	kept, err := writeSidecars(w, o)
	if err != nil {
		return err
	}
	if !o.quiet {
		printConvertSummary(stdout, w, o, written, kept)
	}
	return nil
}

// eachJob calls f with every job of the trace, moving the bar.
func eachJob(w *run.Workload, bar *convertBar, f func(*sim.Job) error) error {
	for {
		j, err := w.Source.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		bar.add()
		if err := f(j); err != nil {
			return err
		}
	}
}

// carriedLabels carries what the native format has no field for as
// labels that replay reads back: a job's checkpoint interval and restore
// cost as checkpoint_s and checkpoint_cost_s, and its co-task group as
// native.CotaskLabel when its labels do not already say it; j is not
// changed.
func carriedLabels(j *sim.Job) *sim.Job {
	var group string
	if j.CotaskGroup != "" && (j.Traits == nil || !slices.ContainsFunc(j.Traits.Labels, func(x sim.Label) bool { return x.Key == native.CotaskLabel })) {
		group = j.CotaskGroup
	}
	if j.CheckpointInterval == 0 && j.CheckpointCost == 0 && group == "" {
		return j
	}
	c := *j
	var t sim.Traits
	if j.Traits != nil {
		t = *j.Traits
	}
	t.Labels = slices.Clone(t.Labels)
	for _, l := range []struct {
		key, val string
	}{
		{"checkpoint_s", seconds(j.CheckpointInterval)},
		{"checkpoint_cost_s", seconds(j.CheckpointCost)},
		{native.CotaskLabel, group},
	} {
		if l.val != "" && !slices.ContainsFunc(t.Labels, func(x sim.Label) bool { return x.Key == l.key }) {
			t.Labels = append(t.Labels, sim.Label{Key: l.key, Value: l.val})
		}
	}
	c.Traits = &t
	return &c
}

// seconds is t as a label value, "" for zero (no label).
func seconds(t sim.Time) string {
	if t == 0 {
		return ""
	}
	return sim.FormatSeconds(t)
}

// writeSidecars writes --cluster-out and --node-events-out, and says
// where the cluster went.
func writeSidecars(w *run.Workload, o convertOptions) (string, error) {
	var kept []string
	if w.Nodes != nil && strings.HasSuffix(strings.ToLower(o.to), ".parquet") {
		kept = append(kept, "in the Parquet metadata")
	}
	if o.clusterOut != "" {
		if w.Nodes == nil {
			return "", run.BadInput(fmt.Errorf("--cluster-out: %s carries no cluster; give --cluster or --platform", w.Name))
		}
		data, err := clusterconfig.EncodeConfig(w.Nodes, w.Defaults, fmt.Sprintf("cluster of %s: %s", filepath.Base(w.Name), w.Cluster))
		if err != nil {
			return "", run.Failed(err)
		}
		if err := metrics.WriteFileAtomic(o.clusterOut, func(out io.Writer) error {
			_, err := out.Write(data)
			return err
		}); err != nil {
			return "", run.Failed(err)
		}
		kept = append(kept, "in "+o.clusterOut)
	}
	if o.eventsOut != "" {
		if err := metrics.WriteFileAtomic(o.eventsOut, func(out io.Writer) error {
			_, err := out.Write(native.AppendNodeEvents(nil, w.NodeEvents))
			return err
		}); err != nil {
			return "", run.Failed(err)
		}
	}
	return strings.Join(kept, " and "), nil
}

// printConvertSummary prints the one-line summary, and a note when the
// trace's cluster was not kept.
func printConvertSummary(out io.Writer, w *run.Workload, o convertOptions, written int, kept string) {
	skips := w.Skips()
	fmt.Fprintf(out, "%s (%s) → %s: %s written, %s skipped", w.Name, w.Format, o.to, words.Count(written, "job"), words.Count(skips.Total, "record"))
	if skips.First != nil {
		fmt.Fprintf(out, " (first: %v)", skips.First)
	}
	switch {
	case w.Nodes != nil && kept != "":
		fmt.Fprintf(out, "; cluster of %s (%s) %s", words.Count(len(w.Nodes), "node"), w.Cluster, kept)
	case w.Nodes != nil:
		fmt.Fprintf(out, "; cluster of %s (%s) not kept: give --cluster-out FILE", words.Count(len(w.Nodes), "node"), w.Cluster)
	}
	if n := len(w.NodeEvents); n > 0 {
		fmt.Fprintf(out, "; %d node events", n)
		if o.eventsOut != "" {
			fmt.Fprintf(out, " in %s", o.eventsOut)
		}
	}
	fmt.Fprintln(out)
}

// sameFile reports whether two paths name one existing file.
func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// convertBar is the progress bar of a conversion: one pass or two, shown
// only on a terminal.
type convertBar struct {
	bar    *progressbar.ProgressBar
	total  int
	passes int
	seen   int64
	out    io.Writer
}

func newConvertBar(records int, enc string, quiet bool, stderr io.Writer) *convertBar {
	if quiet || !run.IsTerminal(os.Stderr) || stderr != os.Stderr {
		return nil
	}
	passes := 2
	if enc == "jsonl" {
		passes = 1
	}
	return &convertBar{total: records, passes: passes, out: stderr}
}

// pass starts the next pass over the trace.
func (b *convertBar) pass(what string) {
	if b == nil {
		return
	}
	b.finish()
	max := int64(b.total)
	if max <= 0 {
		max = -1 // unknown: a spinner
	}
	desc := what
	if b.passes > 1 {
		desc = fmt.Sprintf("%s (%d/2)", what, map[string]int{"reading": 1, "writing": 2}[what])
	}
	b.bar = progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(b.out),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("jobs"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	b.seen = 0
}

func (b *convertBar) add() {
	if b == nil {
		return
	}
	if b.seen++; b.seen%1024 == 0 {
		b.bar.Set64(b.seen)
	}
}

func (b *convertBar) finish() {
	if b == nil || b.bar == nil {
		return
	}
	b.bar.Set64(b.seen)
	b.bar.Finish()
	b.bar = nil
}
