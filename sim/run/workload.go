package run

import (
	"fmt"
	"os"
	"time"

	"github.com/schedsim/schedsim/policies/script"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/batsim"
	"github.com/schedsim/schedsim/traces/embedded"
	"github.com/schedsim/schedsim/traces/formats"
	"github.com/schedsim/schedsim/traces/slurmconf"
	"github.com/schedsim/schedsim/traces/swf"
)

// Workload is an opened trace and the cluster to replay it on.
type Workload struct {
	formats.Opened
	// Name names the trace in messages and run names; SHA256 is of its
	// bytes.
	Name   string
	SHA256 string
	// Limits are the cluster file's caps per user and queue.
	Limits sim.Limits
	// script is the loaded placement script, whose log the run writes.
	script *script.Script
}

// format is the workload's entry in the format registry.
func (w *Workload) format() formats.Format {
	f, _ := formats.Lookup(w.Format)
	return f
}

// request is the formats request of a spec's trace.
func (c *Spec) request() formats.Request {
	r := formats.Request{Path: c.Trace, Format: c.TraceFormat, Strict: c.Strict,
		ClusterGiven: c.Cluster != "" || c.Platform != "",
		SWFModel:     swf.Model(c.SWFModel), ProcsPerNode: c.ProcsPerNode, GoogleScale: c.GoogleScale}
	if c.Trace == "" {
		r.Path, r.Data = embedded.KTHName, embedded.KTH
	}
	r.TimeZone, _ = time.LoadLocation(c.TimeZone) // Validate checked it
	return r
}

// OpenWorkload opens the spec's trace, from cache when one is given, and
// resolves the cluster. Errors are bad input.
func OpenWorkload(c *Spec, cache *TraceCache) (*Workload, error) {
	w, err := cache.open(c)
	if err != nil {
		return nil, err
	}
	if w.Nodes == nil {
		if w.format().NeedsCluster && c.Cluster == "" && c.Platform == "" {
			w.Close()
			return nil, BadInput(fmt.Errorf("%s: this %s trace carries no cluster; give --cluster or --platform", c.Trace, w.Format))
		}
		if err := w.LoadCluster(c); err != nil {
			w.Close()
			return nil, BadInput(err)
		}
	}
	if len(w.NodeEvents) > 0 && c.Backfill == "conservative" {
		w.Close()
		return nil, BadInput(fmt.Errorf("%s: the trace's machines fail and come back (%d node events), which --backfill conservative does not model; use none or easy, or give --cluster", w.Name, len(w.NodeEvents)))
	}
	return w, nil
}

// OpenTrace opens the spec's trace with the cluster it carries, if any
// (an SWF header, a Parquet trace's metadata…); convert uses it alone.
func OpenTrace(c *Spec) (*Workload, error) {
	req := c.request()
	if c.Cluster != "" && formats.IsSlurmConf(c.Cluster) {
		sc, err := slurmconf.Load(c.Cluster)
		if err != nil {
			return nil, BadInput(fmt.Errorf("--cluster: %w", err))
		}
		req.SlurmCluster = sc
	}
	w := &Workload{Name: c.Trace}
	if c.Trace == "" {
		w.Name = embedded.KTHName + " (embedded)"
	}
	sum, err := formats.Checksum(req.Path, req.Data)
	if err != nil {
		return nil, BadInput(fmt.Errorf("--trace: %w", err))
	}
	w.SHA256 = sum
	o, err := formats.Open(req)
	if err != nil {
		return nil, BadInput(err)
	}
	w.Opened = *o
	return w, nil
}

// Skipped returns the trace's skipped records.
func (w *Workload) Skipped() traces.Skips { return w.Skips() }

// LoadCluster builds the cluster the spec names (--platform or --cluster).
func (w *Workload) LoadCluster(c *Spec) error {
	var err error
	switch {
	case c.Platform != "":
		w.Nodes, err = batsim.ReadPlatform(c.Platform, c.MaxHosts)
		w.Cluster = "platform " + c.Platform
	case c.Cluster != "" && formats.IsSlurmConf(c.Cluster):
		var sc *slurmconf.Cluster
		if sc, err = slurmconf.Load(c.Cluster); err == nil {
			w.Nodes = sc.Nodes
		}
		w.Cluster = "slurm.conf " + c.Cluster
	case c.Cluster != "":
		var cfg *clusterconfig.Config
		if cfg, err = clusterconfig.LoadConfig(c.Cluster); err == nil {
			w.Nodes, w.Defaults, w.Limits = cfg.NodeSpecs(), cfg.Defaults, cfg.Limits
		}
		w.Cluster = "cluster " + c.Cluster
	default:
		return fmt.Errorf("no cluster: give --cluster or --platform")
	}
	if err != nil && os.IsNotExist(err) {
		flag := "--cluster"
		if c.Platform != "" {
			flag = "--platform"
		}
		return fmt.Errorf("%s: %w", flag, err)
	}
	return err
}
