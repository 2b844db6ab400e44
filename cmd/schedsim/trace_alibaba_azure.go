package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/alibaba"
	"github.com/schedsim/schedsim/traces/azure"
)

// Trace format names of the production cloud traces.
const (
	formatAlibaba = "alibaba2018"
	formatAzure   = "azure"
)

// sniffCloudTrace tells the Alibaba and Azure traces by their published
// names: a directory holding batch_task.csv[.gz] or a batch_task*.csv[.gz]
// file, and vmtable*.csv[.gz]. "" when neither.
func sniffCloudTrace(path string) string {
	switch {
	case alibaba.IsTrace(path):
		return formatAlibaba
	case azure.IsTrace(path):
		return formatAzure
	}
	return ""
}

// openAlibaba opens an Alibaba cluster-trace-v2018: the trace directory
// (batch_task, batch_instance and machine_meta when present) or a
// batch_task file. Without --cluster or --platform, machine_meta gives the
// nodes and their status changes.
func (w *workload) openAlibaba(c *replayConfig, opt traces.Options) error {
	files, err := alibaba.FindFiles(c.Trace)
	if err != nil {
		return err
	}
	r, err := alibaba.Open(files, alibaba.Options{Options: opt})
	if err != nil {
		return err
	}
	w.source, w.skips, w.close = r, r.Skips, func() { r.Close() }
	if c.Cluster != "" || c.Platform != "" {
		return nil
	}
	if files.Machines == "" {
		r.Close()
		return fmt.Errorf("%s: no machine_meta.csv beside batch_task to build the cluster from; give the trace directory, --cluster or --platform", c.Trace)
	}
	m, err := alibaba.ReadMachines(files.Machines, opt)
	if err != nil {
		r.Close()
		return err
	}
	if len(m.Events) > 0 && c.Backfill == string(policies.Conservative) {
		r.Close()
		return fmt.Errorf("%s: %d machine status changes, which --backfill conservative does not model; use none or easy, or --cluster", files.Machines, len(m.Events))
	}
	w.nodes, w.nodeEvents = m.Nodes, m.Events
	w.skips = func() traces.Skips { return mergeSkips(r.Skips(), m.Skips) }
	w.cluster = fmt.Sprintf("machine_meta %s: %d machines, %d status changes as node events", files.Machines, len(m.Nodes), len(m.Events))
	return nil
}

// openAzure opens an Azure Public Dataset V2 vmtable; the trace has no
// cluster.
func (w *workload) openAzure(c *replayConfig, opt traces.Options) error {
	if c.Cluster == "" && c.Platform == "" {
		return fmt.Errorf("%s: the Azure VM trace carries no cluster; give --cluster (e.g. testdata/azure/cluster.yaml) or --platform", c.Trace)
	}
	r, err := azure.Open(c.Trace, azure.Options{Options: opt})
	if err != nil {
		return err
	}
	w.source, w.skips, w.close = r, r.Skips, func() { r.Close() }
	return nil
}

// mergeSkips adds the skips of two tables.
func mergeSkips(a, b traces.Skips) traces.Skips {
	out := traces.Skips{Total: a.Total + b.Total, First: a.First}
	if out.First == nil {
		out.First = b.First
	}
	for _, s := range []traces.Skips{a, b} {
		for reason, n := range s.ByReason {
			if out.ByReason == nil {
				out.ByReason = map[string]int{}
			}
			out.ByReason[reason] += n
		}
	}
	return out
}

// dirChecksum is the SHA-256 of an Alibaba trace directory: the name and
// bytes of each table the reader uses, tasks, instances, machines.
func dirChecksum(dir string) (string, error) {
	files, err := alibaba.FindFiles(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, p := range []string{files.Tasks, files.Instances, files.Machines} {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\n", filepath.Base(p))
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %v", p, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
