package gen

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// Cluster is the cluster a workload is made for, in the shape of a cluster
// file (sim/clusterconfig): groups of identical nodes.
type Cluster struct {
	Name   string
	Groups []NodeGroup
	// IdleW and MaxW are every node's power model (watts idle and at full
	// use of cpu); both 0 for none.
	IdleW, MaxW float64
}

// NodeGroup is Count identical nodes named Prefix followed by 0, 1, …
// (zero-padded, as the cluster file names them).
type NodeGroup struct {
	Prefix     string
	Count      int
	Resources  []sim.Quantity // per node
	Attributes [][2]string    // key, value; in order
}

// Nodes is the number of nodes of c.
func (c Cluster) Nodes() int {
	n := 0
	for _, g := range c.Groups {
		n += g.Count
	}
	return n
}

// Capacity is c's total of each resource, in the order resources first
// appear.
func (c Cluster) Capacity() []sim.Quantity {
	var total []sim.Quantity
	for _, g := range c.Groups {
		for _, q := range g.Resources {
			i := 0
			for i < len(total) && total[i].Resource != q.Resource {
				i++
			}
			if i == len(total) {
				total = append(total, sim.Quantity{Resource: q.Resource})
			}
			total[i].Amount += q.Amount * sim.Amount(g.Count)
		}
	}
	return total
}

// WriteYAML writes c as a cluster file that sim/clusterconfig reads
// (`schedsim replay --cluster`). Groups without nodes are left out.
func (c Cluster) WriteYAML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %d nodes, written by schedsim gen\n", c.Nodes())
	fmt.Fprintf(bw, "name: %s\n", strconv.Quote(c.Name))
	if c.IdleW != 0 || c.MaxW != 0 {
		fmt.Fprintf(bw, "power: {idle_w: %s, max_w: %s, resource: cpu}\n", formatFloat(c.IdleW), formatFloat(c.MaxW))
	}
	fmt.Fprintln(bw, "node_groups:")
	for _, g := range c.Groups {
		if g.Count == 0 {
			continue
		}
		fmt.Fprintf(bw, "  - prefix: %s\n    count: %d\n    resources: {", strconv.Quote(g.Prefix), g.Count)
		for i, q := range g.Resources {
			if i > 0 {
				bw.WriteString(", ")
			}
			fmt.Fprintf(bw, "%s: %s", q.Resource, q.Amount)
		}
		bw.WriteString("}\n")
		if len(g.Attributes) > 0 {
			bw.WriteString("    attributes: {")
			for i, a := range g.Attributes {
				if i > 0 {
					bw.WriteString(", ")
				}
				fmt.Fprintf(bw, "%s: %s", a[0], strconv.Quote(a[1]))
			}
			bw.WriteString("}\n")
		}
	}
	return bw.Flush()
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
