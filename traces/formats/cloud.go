package formats

import (
	"fmt"

	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/alibaba"
	"github.com/schedsim/schedsim/traces/azure"
	"github.com/schedsim/schedsim/traces/google"
)

func isAlibaba(path string) bool { return path != "" && alibaba.IsTrace(path) }
func isAzure(path string) bool   { return path != "" && azure.IsTrace(path) }

func isGoogle2011(path string) bool { return isGoogleVersion(path, google.V2011) }
func isGoogle2019(path string) bool { return isGoogleVersion(path, google.V2019) }

func isGoogleVersion(path string, v google.Version) bool {
	if path == "" || !isDirectory(path) {
		return false
	}
	got, ok := google.Sniff(path)
	return ok && got == v
}

// openAlibaba opens an Alibaba cluster-trace-v2018: the trace directory
// (batch_task, batch_instance and machine_meta when present) or a
// batch_task file. Without a given cluster, machine_meta gives the nodes
// and their status changes.
func openAlibaba(req Request) (*Opened, error) {
	files, err := alibaba.FindFiles(req.Path)
	if err != nil {
		return nil, err
	}
	r, err := alibaba.Open(files, alibaba.Options{Options: req.options()})
	if err != nil {
		return nil, err
	}
	out := &Opened{Source: r, Skips: r.Skips, Close: func() { r.Close() }, Traitless: true}
	if req.ClusterGiven {
		return out, nil
	}
	if files.Machines == "" {
		r.Close()
		return nil, fmt.Errorf("%s: no machine_meta.csv beside batch_task to build the cluster from; give the trace directory, --cluster or --platform", req.Path)
	}
	m, err := alibaba.ReadMachines(files.Machines, req.options())
	if err != nil {
		r.Close()
		return nil, err
	}
	out.Nodes, out.NodeEvents = m.Nodes, m.Events
	out.Skips = func() traces.Skips { return traces.MergeSkips(r.Skips(), m.Skips) }
	out.Cluster = fmt.Sprintf("machine_meta %s: %d machines, %d status changes as node events", files.Machines, len(m.Nodes), len(m.Events))
	return out, nil
}

// openAzure opens an Azure Public Dataset V2 vmtable; the trace has no
// cluster.
func openAzure(req Request) (*Opened, error) {
	if !req.ClusterGiven {
		return nil, fmt.Errorf("%s: the Azure VM trace carries no cluster; give --cluster (e.g. testdata/azure/cluster.yaml) or --platform", req.Path)
	}
	r, err := azure.Open(req.Path, azure.Options{Options: req.options()})
	if err != nil {
		return nil, err
	}
	return &Opened{Source: r, Skips: r.Skips, Close: func() { r.Close() }, Traitless: true}, nil
}

func openGoogle2011(req Request) (*Opened, error) { return openGoogle(req, google.V2011) }
func openGoogle2019(req Request) (*Opened, error) { return openGoogle(req, google.V2019) }

// openGoogle opens a Google cluster trace directory. The trace carries
// its cluster (machine_events) and the machines' failures, used unless
// the request gives a cluster. Its jobs carry constraints and
// anti-affinity, which only the placement pipeline honours.
func openGoogle(req Request, v google.Version) (*Opened, error) {
	scale, err := google.ParseScale(req.GoogleScale)
	if err != nil {
		return nil, fmt.Errorf("--google-scale: %w", err)
	}
	r, err := google.OpenVersion(req.Path, v, google.Options{Options: req.options(), Scale: scale})
	if err != nil {
		return nil, err
	}
	out := &Opened{Source: r, Skips: r.Skips, Close: func() { r.Close() }, Constrained: true}
	if req.ClusterGiven {
		return out, nil
	}
	st := r.Stats().Machines
	if len(r.Nodes()) == 0 {
		r.Close()
		return nil, fmt.Errorf("%s: machine_events gives no machine with a capacity; give --cluster", req.Path)
	}
	out.Nodes, out.NodeEvents = r.Nodes(), r.NodeEvents()
	out.Cluster = fmt.Sprintf("%s machine_events: %d machines, %d node events (%d left out without capacity, %d capacity updates ignored)",
		v, st.Machines, st.Events, st.NoCapacity, st.Updates)
	return out, nil
}
