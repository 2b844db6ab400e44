package sim

import (
	"fmt"
	"sort"
)

// NodeSpec describes one node of a cluster.
type NodeSpec struct {
	Name       string
	Capacity   []Quantity        // resources the node offers
	Attributes map[string]string // zone, rack, arch, model…
	Power      PowerModel
}

// PowerModel gives a node's draw: Idle + (Max − Idle) · utilization of
// Resource, in watts.
type PowerModel struct {
	IdleW    float64
	MaxW     float64
	Resource string // resource whose utilization drives power; "" means the cluster's first
}

// Cluster is the compiled, immutable description of the nodes: resource
// names mapped to indices and capacities laid out flat for speed.
type Cluster struct {
	Nodes     []NodeSpec
	Resources []string // resource index → name, in first-seen order
	resIndex  map[string]int32
	// capacity[n*R+r] is node n's capacity of resource r, or absent.
	capacity []Amount
}

// absent marks a resource a node does not define.
const absent Amount = -1 << 62

// NewCluster checks the nodes and compiles them.
func NewCluster(nodes []NodeSpec) (*Cluster, error) {
	if len(nodes) == 0 {
		return nil, fmt.Errorf("cluster has no nodes")
	}
	c := &Cluster{Nodes: nodes, resIndex: map[string]int32{}}
	seen := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		if n.Name == "" {
			return nil, fmt.Errorf("a node has no name")
		}
		if seen[n.Name] {
			return nil, fmt.Errorf("node name %q used twice", n.Name)
		}
		seen[n.Name] = true
		for _, q := range n.Capacity {
			if _, ok := c.resIndex[q.Resource]; !ok {
				c.resIndex[q.Resource] = int32(len(c.Resources))
				c.Resources = append(c.Resources, q.Resource)
			}
		}
	}
	R := len(c.Resources)
	c.capacity = make([]Amount, len(nodes)*R)
	for i := range c.capacity {
		c.capacity[i] = absent
	}
	for i, n := range nodes {
		for _, q := range n.Capacity {
			if q.Amount < 0 {
				return nil, fmt.Errorf("node %s: resource %s: negative capacity %s", n.Name, q.Resource, q.Amount)
			}
			c.capacity[i*R+int(c.resIndex[q.Resource])] = q.Amount
		}
		if n.Power.MaxW < n.Power.IdleW || n.Power.IdleW < 0 {
			return nil, fmt.Errorf("node %s: power: Need 0 ≤ idle_w ≤ max_w, got %g and %g", n.Name, n.Power.IdleW, n.Power.MaxW)
		}
		if r := n.Power.Resource; r != "" {
			if _, ok := c.resIndex[r]; !ok {
				return nil, fmt.Errorf("node %s: power resource %q is not a resource of the cluster", n.Name, r)
			}
		}
	}
	return c, nil
}

// NumResources is the number of distinct resources.
func (c *Cluster) NumResources() int { return len(c.Resources) }

// Capacity returns node n's capacity of resource r and whether it has it.
func (c *Cluster) Capacity(n, r int) (Amount, bool) {
	a := c.capacity[n*len(c.Resources)+r]
	return a, a != absent
}

// TotalCapacity returns the sum over nodes of resource r.
func (c *Cluster) TotalCapacity(r int) Amount {
	var t Amount
	for n := range c.Nodes {
		if a, ok := c.Capacity(n, r); ok {
			t += a
		}
	}
	return t
}

// compile turns a job's named request into indices. It fails when the job
// lists a resource no node has and asks for a positive amount of it.
func (c *Cluster) compile(j *Job) ([]Need, error) {
	req := make([]Need, 0, len(j.Request))
	for _, q := range j.Request {
		r, ok := c.resIndex[q.Resource]
		if !ok {
			return nil, fmt.Errorf("no node has resource %q", q.Resource)
		}
		req = append(req, Need{r, q.Amount})
	}
	sort.Slice(req, func(a, b int) bool { return req[a].Res < req[b].Res })
	return req, nil
}

// tasksFitting returns how many tasks with request req fit into the free
// amounts of node n (free is the flat free array), capped at limit.
func tasksFitting(free []Amount, R int, n int, req []Need, limit int) int {
	best := limit
	base := n * R
	for _, q := range req {
		f := free[base+int(q.Res)]
		if f == absent || f < 0 {
			return 0
		}
		if q.Amt <= 0 {
			continue
		}
		if k := int(f / q.Amt); k < best {
			best = k
		}
	}
	return best
}
