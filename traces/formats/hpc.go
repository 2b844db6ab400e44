package formats

import (
	"fmt"
	"path/filepath"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/batsim"
	"github.com/schedsim/schedsim/traces/native"
	"github.com/schedsim/schedsim/traces/swf"
)

// openSWF opens an SWF log; without a given cluster its header's machine
// in the requested model.
func openSWF(req Request) (*Opened, error) {
	o := swf.Options{Options: req.options(), Model: req.SWFModel, ProcsPerNode: req.ProcsPerNode}
	var r *swf.Reader
	var err error
	if req.Data != nil {
		r, err = swf.OpenBytes(filepath.Base(req.Path), req.Data, o)
	} else {
		r, err = swf.Open(req.Path, o)
	}
	if err != nil {
		return nil, err
	}
	out := &Opened{Source: r, Skips: r.Skips, Close: func() { r.Close() }, Records: r.Records(), Traitless: true,
		Epoch: r.Header().Epoch, TimeZone: r.Header().TimeZone}
	if req.ClusterGiven {
		return out, nil
	}
	out.Nodes, err = r.Header().Cluster(swf.ClusterOptions{Model: o.Model, ProcsPerNode: req.ProcsPerNode})
	if err != nil {
		r.Close()
		return nil, err
	}
	out.ClusterModel = string(o.Model)
	g, _ := r.Header().Geometry(req.ProcsPerNode)
	if o.Model == swf.Nodes {
		out.Cluster = fmt.Sprintf("SWF header, nodes model: %s × %s", words.Count(g.Nodes, "node"), words.Count(g.ProcsPerNode, "processor"))
	} else {
		out.Cluster = fmt.Sprintf("SWF header, pool model: one pool of %s (%s)", words.Count(g.Procs, "processor"), words.Count(g.Nodes, "node"))
	}
	return out, nil
}

// openBatsim opens a Batsim JSON workload; without a platform, nb_res
// identical hosts named host0….
func openBatsim(req Request) (*Opened, error) {
	r, err := batsim.OpenWorkload(req.Path, req.options())
	if err != nil {
		return nil, err
	}
	out := &Opened{Source: r, Skips: r.Skips, Traitless: true}
	if req.ClusterGiven {
		return out, nil
	}
	n := r.NbRes()
	if n <= 0 {
		return nil, fmt.Errorf("%s: the workload has no nb_res; give --platform or --cluster", req.Path)
	}
	out.Nodes = make([]sim.NodeSpec, n)
	width := len(fmt.Sprint(n - 1))
	for i := range out.Nodes {
		out.Nodes[i] = sim.NodeSpec{
			Name:     fmt.Sprintf("host%0*d", width, i),
			Capacity: []sim.Quantity{{Resource: "host", Amount: sim.Units(1)}, {Resource: "cpu", Amount: sim.Units(1)}},
			Power:    sim.PowerModel{Resource: "host"},
		}
	}
	out.Cluster = fmt.Sprintf("workload nb_res: %s (no power model; give --platform for energy)", words.Count(n, "host"))
	return out, nil
}

// openNative opens schedsim's own table; a Parquet trace may carry its
// cluster and node events (convert, gen), which a given cluster replaces.
func openNative(req Request) (*Opened, error) {
	r, err := native.Open(req.Path, req.options())
	if err != nil {
		return nil, err
	}
	out := &Opened{Source: r, Skips: r.Skips, Close: func() { r.Close() }, Traitless: r.Traitless(),
		NoDependencies: r.NoDependencies()}
	out.Epoch, out.TimeZone = r.Calendar()
	if e := r.Embedded(); e != nil && e.Cluster != nil && !req.ClusterGiven {
		out.Nodes, out.Defaults, out.NodeEvents = e.Cluster, e.Defaults, e.NodeEvents
		out.Cluster = fmt.Sprintf("embedded in %s (%s)", filepath.Base(req.Path), e.ClusterSource)
	}
	return out, nil
}
