package metrics

import (
	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedsim/schedsim/sim"
)

// OwnershipChange is one change of a node's holder under vClusters: from
// At on, Holder's jobs use the node (Holder is the node's home when it
// falls idle or is reclaimed).
type OwnershipChange struct {
	At     sim.Time
	Node   int
	Holder string
}

// Ownership writes the ownership table (ownership.<format>), one row per
// change, in the order given, with the run's other tables: Close finishes
// it, Abort removes it. Call it after the run, before Close.
func (r *Recorder) Ownership(changes []OwnershipChange) error {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "time_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "node", Type: arrow.BinaryTypes.String},
		{Name: "holder", Type: arrow.BinaryTypes.String}, // vCluster whose jobs use the node
	}, nil)
	tb, err := newTable(r.dir, "ownership", r.opt.Format, schema, r.mem)
	if err != nil {
		return err
	}
	r.tables = append(r.tables, tb)
	return tb.send(func(rb *array.RecordBuilder) {
		b := builders{rb}
		at, node, holder := b.f64("time_s"), b.str("node"), b.str("holder")
		for _, c := range changes {
			at.Append(c.At.Seconds())
			node.Append(r.c.Nodes[c.Node].Name)
			holder.Append(c.Holder)
		}
	})
}
