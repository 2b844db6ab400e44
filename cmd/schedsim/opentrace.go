package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedsim/schedsim/policies/script"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/batsim"
	"github.com/schedsim/schedsim/traces/native"
	"github.com/schedsim/schedsim/traces/swf"
)

// defaultTrace is the log `schedsim replay` uses without --trace: KTH-SP2
// from the Parallel Workloads Archive (see embedded/ATTRIBUTION.md).
//
//go:embed embedded/KTH-SP2-1996-2.1-cln.swf.gz
var defaultTrace []byte

const defaultTraceName = "KTH-SP2-1996-2.1-cln.swf.gz"

// workload is an opened trace and the cluster to replay it on.
type workload struct {
	source sim.Source
	nodes  []sim.NodeSpec
	// defaults are the cluster file's default requirements (Bistro).
	defaults []sim.Quantity
	// script is the loaded placement script, whose log the run writes.
	script  *script.Script
	skips   func() traces.Skips
	close   func()
	records int    // records in the trace, for progress; 0 when unknown
	format  string // swf, batsim, native, alibaba2018, azure
	name    string // for run names and messages
	sha256  string // of the trace file's bytes
	cluster string // where the nodes came from

	// traitless: no job of the trace can have placement traits (a
	// Parquet trace without trait columns), so the plain first fit does.
	traitless bool

	// nodeEvents are node changes the trace itself records (Alibaba
	// machine_meta statuses), replayed with those of --node-events.
	nodeEvents []sim.NodeEvent
}

// openWorkload opens the trace, from cache when one is given, and
// resolves the cluster.
func openWorkload(c *replayConfig, cache *traceCache) (*workload, error) {
	w, err := cache.open(c)
	if err != nil {
		return nil, err
	}
	if w.nodes == nil {
		if w.format == "native" && c.Cluster == "" && c.Platform == "" {
			w.close()
			return nil, badInput(fmt.Errorf("%s: this native trace carries no cluster; give --cluster or --platform", c.Trace))
		}
		if err := w.loadCluster(c); err != nil {
			w.close()
			return nil, badInput(err)
		}
	}
	return w, nil
}

// openTrace opens the trace with the cluster it carries, if any (an SWF
// header, a Parquet trace's metadata…); convert uses it alone.
func openTrace(c *replayConfig) (*workload, error) {
	w := &workload{close: func() {}}
	var data []byte
	if c.Trace == "" {
		data = defaultTrace
		w.name = defaultTraceName + " (embedded)"
	} else {
		w.name = c.Trace
	}
	sum, err := checksum(c.Trace, data)
	if err != nil {
		return nil, badInput(err)
	}
	w.sha256 = sum
	w.format = c.TraceFormat
	if w.format == "" {
		if w.format, err = sniffFormat(c.Trace, data); err != nil {
			return nil, badInput(err)
		}
	}
	opt := traces.Options{Strict: c.Strict}
	switch w.format {
	case "swf":
		err = w.openSWF(c, data, opt)
	case "batsim":
		err = w.openBatsim(c, opt)
	case "native":
		err = w.openNative(c, opt)
	case formatAlibaba:
		err = w.openAlibaba(c, opt)
	case formatAzure:
		err = w.openAzure(c, opt)
	case formatGoogle2011, formatGoogle2019:
		err = w.openGoogle(c, opt)
	}
	if err != nil {
		return nil, badInput(err)
	}
	return w, nil
}

func (w *workload) openSWF(c *replayConfig, data []byte, opt traces.Options) error {
	o := swf.Options{Options: opt, Model: swf.Model(c.SWFModel), ProcsPerNode: c.ProcsPerNode}
	var r *swf.Reader
	var err error
	if data != nil {
		r, err = swf.OpenBytes(defaultTraceName, data, o)
	} else {
		r, err = swf.Open(c.Trace, o)
	}
	if err != nil {
		return err
	}
	w.source, w.skips, w.close, w.records = r, r.Skips, func() { r.Close() }, r.Records()
	if c.Cluster == "" && c.Platform == "" {
		w.nodes, err = r.Header().Cluster(swf.ClusterOptions{Model: o.Model, ProcsPerNode: c.ProcsPerNode})
		if err != nil {
			r.Close()
			return err
		}
		g, _ := r.Header().Geometry(c.ProcsPerNode)
		if o.Model == swf.Nodes {
			w.cluster = fmt.Sprintf("SWF header, nodes model: %d nodes × %d processors", g.Nodes, g.ProcsPerNode)
		} else {
			w.cluster = fmt.Sprintf("SWF header, pool model: one pool of %d processors (%d nodes)", g.Procs, g.Nodes)
		}
	}
	return nil
}

func (w *workload) openBatsim(c *replayConfig, opt traces.Options) error {
	r, err := batsim.OpenWorkload(c.Trace, opt)
	if err != nil {
		return err
	}
	w.source, w.skips = r, r.Skips
	if c.Cluster == "" && c.Platform == "" {
		n := r.NbRes()
		if n <= 0 {
			return fmt.Errorf("%s: the workload has no nb_res; give --platform or --cluster", c.Trace)
		}
		// Without a platform, nb_res identical hosts, each one "host".
		w.nodes = make([]sim.NodeSpec, n)
		width := len(fmt.Sprint(n - 1))
		for i := range w.nodes {
			w.nodes[i] = sim.NodeSpec{
				Name:     fmt.Sprintf("host%0*d", width, i),
				Capacity: []sim.Quantity{{Resource: "host", Amount: sim.Units(1)}, {Resource: "cpu", Amount: sim.Units(1)}},
				Power:    sim.PowerModel{Resource: "host"},
			}
		}
		w.cluster = fmt.Sprintf("workload nb_res: %d hosts (no power model; give --platform for energy)", n)
	}
	return nil
}

func (w *workload) openNative(c *replayConfig, opt traces.Options) error {
	r, err := native.Open(c.Trace, opt)
	if err != nil {
		return err
	}
	w.source, w.skips, w.close = r, r.Skips, func() { r.Close() }
	w.traitless = r.Traitless()
	// A Parquet trace may carry its cluster and node events (convert,
	// gen); --cluster and --platform replace both.
	if e := r.Embedded(); e != nil && e.Cluster != nil && c.Cluster == "" && c.Platform == "" {
		w.nodes, w.defaults, w.nodeEvents = e.Cluster, e.Defaults, e.NodeEvents
		w.cluster = fmt.Sprintf("embedded in %s (%s)", filepath.Base(c.Trace), e.ClusterSource)
	}
	return nil
}

func (w *workload) loadCluster(c *replayConfig) error {
	var err error
	switch {
	case c.Platform != "":
		w.nodes, err = batsim.ReadPlatform(c.Platform, c.MaxHosts)
		w.cluster = "platform " + c.Platform
	case c.Cluster != "":
		var cfg *clusterconfig.Config
		if cfg, err = clusterconfig.LoadConfig(c.Cluster); err == nil {
			w.nodes, w.defaults = cfg.NodeSpecs(), cfg.Defaults
		}
		w.cluster = "cluster " + c.Cluster
	default:
		err = fmt.Errorf("no cluster: give --cluster or --platform")
	}
	return err
}

// sniffFormat picks the trace format from the file name, else its content.
func sniffFormat(path string, data []byte) (string, error) {
	name := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
	switch {
	case path == "":
		return "swf", nil
	case sniffCloudTrace(path) != "":
		return sniffCloudTrace(path), nil
	case isDirectory(path):
		return sniffGoogle(path)
	case strings.HasSuffix(name, ".swf"):
		return "swf", nil
	case strings.HasSuffix(name, ".jsonl"), strings.HasSuffix(name, ".ndjson"), strings.HasSuffix(name, ".csv"), strings.HasSuffix(name, ".parquet"):
		return "native", nil
	case strings.HasSuffix(name, ".json"):
		return "batsim", nil
	}
	// No telling extension: look at the first meaningful byte.
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if magic, _ := r.(*bufio.Reader).Peek(4); string(magic) == "PAR1" {
		return "native", nil // a Parquet file
	}
	if magic, _ := r.(*bufio.Reader).Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return "", fmt.Errorf("%s: %v", path, err)
		}
		r = gz
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(r, head)
	head = bytes.TrimLeft(head[:n], " \t\r\n\ufeff")
	switch {
	case len(head) == 0:
		return "", fmt.Errorf("%s: empty trace", path)
	case head[0] == ';' || (head[0] >= '0' && head[0] <= '9'):
		return "swf", nil
	case head[0] == '{' && bytes.Contains(head, []byte(`"jobs"`)):
		return "batsim", nil
	}
	return "", fmt.Errorf("%s: cannot tell the trace format from its name or content; give --trace-format", path)
}

// checksum is the SHA-256 of the trace file (or embedded bytes).
func checksum(path string, data []byte) (string, error) {
	h := sha256.New()
	if fi, err := os.Stat(path); data == nil && err == nil && fi.IsDir() {
		if _, google := sniffGoogle(path); google == nil {
			return checksumDir(path)
		}
		return dirChecksum(path)
	}
	if data != nil {
		h.Write(data)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if _, err := io.Copy(h, f); err != nil {
			return "", fmt.Errorf("%s: %v", path, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
