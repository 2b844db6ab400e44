package gen

import (
	"bytes"
	"fmt"
	"io"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/traces/native"
)

// WriteTrace writes every job the generator makes to w as a native trace
// in encoding e. Every job requests each resource of the cluster, so the
// columns are a req_ column per resource and no traits; a Parquet file
// carries the cluster in its metadata, so that it replays without
// --cluster.
func (g *Generator) WriteTrace(w io.Writer, e native.Encoding) error {
	var cols native.Columns
	c := g.Cluster()
	for _, q := range c.Capacity() {
		cols.Resources = append(cols.Resources, q.Resource)
	}
	var meta *native.Embedded
	if e.Format == "parquet" {
		var yaml bytes.Buffer
		if err := c.WriteYAML(&yaml); err != nil {
			return err
		}
		specs, err := clusterconfig.Parse(yaml.Bytes(), c.Name)
		if err != nil {
			return err
		}
		meta = &native.Embedded{
			Cluster:       specs,
			ClusterSource: fmt.Sprintf("schedsim gen --model %s: %s", g.Model(), c.Name),
			Source:        "schedsim gen --model " + g.Model(),
		}
	}
	return native.WriteTrace(w, e, cols, meta, func(emit func(*sim.Job) error) error {
		for {
			j, err := g.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := emit(j); err != nil {
				return err
			}
		}
	})
}
