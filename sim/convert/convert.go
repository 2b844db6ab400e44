package convert

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/native"
)

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

// Options are a conversion's outputs beside the spec's trace.
type Options struct {
	To            string // the native trace; its extension picks the encoding
	ClusterOut    string // also the trace's cluster, as a cluster file ("": not)
	NodeEventsOut string // also its node events, as --node-events CSV ("": not)
	// Progress, when set, shows a progress bar of the passes over the
	// trace (a terminal).
	Progress io.Writer
}

// Result is what a conversion wrote.
type Result struct {
	Trace, Format string       // the trace read and its format
	Written       int          // jobs written
	Skips         traces.Skips // records the reader skipped
	Nodes         int          // nodes of the trace's cluster (0: none)
	Cluster       string       // where that cluster came from
	// ClusterKept says where the cluster was written ("in the Parquet
	// metadata and in FILE"); "" when nowhere.
	ClusterKept string
	NodeEvents  int // node events the trace records
}

// Convert writes the trace of spec c (read as replay reads it, with its
// cluster) as a native trace at o.To, atomically. It reads the trace once
// to learn the columns (Parquet and CSV need them before the first row),
// then again to write it; neither pass holds more than a row group of
// jobs.
func Convert(c *run.Spec, o Options) (*Result, error) {
	enc, ok := native.EncodingOf(o.To)
	if !ok {
		return nil, run.BadInput(fmt.Errorf("--to %s: want a .parquet, .jsonl, .ndjson or .csv file (the last three optionally .gz)", o.To))
	}
	if same, _ := sameFile(c.Trace, o.To); same {
		return nil, run.BadInput(fmt.Errorf("--to %s is the trace itself", o.To))
	}
	w, err := openForConvert(c)
	if err != nil {
		return nil, err
	}
	bar := newConvertBar(w.Records, enc.Format, o.Progress)
	var cols native.Columns
	if enc.Format != "jsonl" {
		bar.pass("reading")
		err := eachJob(w, bar, func(j *sim.Job) error { return cols.Add(carriedLabels(j)) })
		w.Close()
		if err != nil {
			return nil, err
		}
		if w, err = openForConvert(c); err != nil {
			return nil, err
		}
	}
	defer w.Close()
	meta := &native.Embedded{Cluster: w.Nodes, Defaults: w.Defaults, ClusterSource: w.Cluster, NodeEvents: w.NodeEvents,
		Source: fmt.Sprintf("%s (%s, sha256 %s)", filepath.Base(w.Name), w.Format, w.SHA256),
		Epoch:  w.Epoch, TimeZone: w.TimeZone}
	written := 0
	bar.pass("writing")
	err = metrics.WriteFileAtomic(o.To, func(out io.Writer) error {
		return native.WriteTrace(out, enc, cols, meta, func(emit func(*sim.Job) error) error {
			return eachJob(w, bar, func(j *sim.Job) error {
				written++
				return emit(carriedLabels(j))
			})
		})
	})
	bar.finish()
	if err != nil {
		var pe *traces.ParseError
		if errors.As(err, &pe) || errors.Is(err, traces.ErrRecordTooLong) {
			return nil, run.BadInput(err)
		}
		return nil, run.Failed(fmt.Errorf("convert %s: %w", w.Name, err))
	}
	kept, err := writeSidecars(w, o)
	if err != nil {
		return nil, err
	}
	return &Result{Trace: w.Name, Format: w.Format, Written: written, Skips: w.Skips(), Nodes: len(w.Nodes), Cluster: w.Cluster,
		ClusterKept: kept, NodeEvents: len(w.NodeEvents)}, nil
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

// writeSidecars writes --cluster-out and --node-events-out, and says
// where the cluster went.
func writeSidecars(w *run.Workload, o Options) (string, error) {
	var kept []string
	if w.Nodes != nil && strings.HasSuffix(strings.ToLower(o.To), ".parquet") {
		kept = append(kept, "in the Parquet metadata")
	}
	if o.ClusterOut != "" {
		if w.Nodes == nil {
			return "", run.BadInput(fmt.Errorf("--cluster-out: %s carries no cluster; give --cluster or --platform", w.Name))
		}
		data, err := clusterconfig.EncodeConfig(w.Nodes, w.Defaults, fmt.Sprintf("cluster of %s: %s", filepath.Base(w.Name), w.Cluster))
		if err != nil {
			return "", run.Failed(err)
		}
		if err := metrics.WriteFileAtomic(o.ClusterOut, func(out io.Writer) error {
			_, err := out.Write(data)
			return err
		}); err != nil {
			return "", run.Failed(err)
		}
		kept = append(kept, "in "+o.ClusterOut)
	}
	if o.NodeEventsOut != "" {
		if err := metrics.WriteFileAtomic(o.NodeEventsOut, func(out io.Writer) error {
			_, err := out.Write(native.AppendNodeEvents(nil, w.NodeEvents))
			return err
		}); err != nil {
			return "", run.Failed(err)
		}
	}
	return strings.Join(kept, " and "), nil
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
