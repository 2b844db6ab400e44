package sim

import (
	"cmp"
	"fmt"
	"slices"
)

// NodeSpec describes one node of a cluster.
type NodeSpec struct {
	Name       string
	Capacity   []Quantity        // resources the node offers
	Attributes map[string]string // zone, rack, arch, model…
	Power      PowerModel
	// Parent names the node one level up (rack, switch; ): a task
	// consumes on its node and on every ancestor defining the resource.
	// "" for none. A node that is a parent holds no tasks itself.
	Parent string
	// Taints keep tasks off the node unless they tolerate them (k8s).
	Taints []Taint
}

// Taint is a k8s taint: Effect is NoSchedule (hard) or PreferNoSchedule
// (soft). A task tolerates it with a toleration of the same key and, when
// the toleration gives one, the same value.
type Taint struct {
	Key, Value, Effect string
}

// Cluster is the compiled, immutable description of the nodes: resource
// names mapped to indices and capacities laid out flat for speed.
type Cluster struct {
	Nodes     []NodeSpec
	Resources []string // resource index → name, in first-seen order
	resIndex  map[string]int32
	// capacity[n*R+r] is node n's capacity of resource r, or absent.
	capacity []Amount
	// Defaults are what every job requires of a resource it does not list
	// (Bistro's per-resource default, for entitlements).
	Defaults []Quantity

	parentOf  []int32 // node → parent, −1 for none; nil when no node has one
	isParent  []bool
	leafLevel []bool // resource r is defined on some leaf
	negative  bool   // some capacity is negative (shortcoming or ward)
	special   bool   // parents or negative amounts: the full fit semantics
	// permissive is the most permissive state the cluster can reach, laid
	// out like capacity (shortcoming.go); it is capacity itself when no
	// node has a shortcoming.
	permissive   []Amount
	shortcomings bool
	// shortRes marks the resources some node has a shortcoming or a ward
	// of: a
	// negative request of any other resource would add to the free
	// amounts, so the engine refuses it (compile).
	shortRes []bool
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
			if q.Amount < Ward {
				q.Amount = Ward
			}
			if q.Amount < 0 {
				c.negative = true
			}
			c.capacity[i*R+int(c.resIndex[q.Resource])] = q.Amount
		}
		if err := n.Power.validate(); err != nil {
			return nil, fmt.Errorf("node %s: power: %w", n.Name, err)
		}
		if r := n.Power.Resource; r != "" {
			if _, ok := c.resIndex[r]; !ok {
				return nil, fmt.Errorf("node %s: power resource %q is not a resource of the cluster", n.Name, r)
			}
		}
	}
	if err := c.linkParents(); err != nil {
		return nil, err
	}
	c.special = c.negative || c.parentOf != nil
	c.initPermissive()
	return c, nil
}

// linkParents resolves parent names, rejects cycles, and records which
// resources leaves define.
func (c *Cluster) linkParents() error {
	R := len(c.Resources)
	c.leafLevel = make([]bool, R)
	index := map[string]int32{}
	for i, n := range c.Nodes {
		index[n.Name] = int32(i)
	}
	for i, n := range c.Nodes {
		if n.Parent == "" {
			continue
		}
		p, ok := index[n.Parent]
		if !ok {
			return fmt.Errorf("node %s: parent %q is not a node of the cluster", n.Name, n.Parent)
		}
		if c.parentOf == nil {
			c.parentOf = make([]int32, len(c.Nodes))
			for k := range c.parentOf {
				c.parentOf[k] = -1
			}
			c.isParent = make([]bool, len(c.Nodes))
		}
		c.parentOf[i] = p
		c.isParent[p] = true
	}
	for i := range c.Nodes {
		steps := 0
		for m := c.parent(i); m >= 0; m = c.parent(m) {
			if steps++; steps > len(c.Nodes) || m == i {
				return fmt.Errorf("node %s: its parents form a cycle", c.Nodes[i].Name)
			}
		}
	}
	for n := range c.Nodes {
		if c.IsParent(n) {
			continue
		}
		for r := 0; r < R; r++ {
			if c.capacity[n*R+r] != absent {
				c.leafLevel[r] = true
			}
		}
	}
	return nil
}

// NumResources is the number of distinct resources.
func (c *Cluster) NumResources() int { return len(c.Resources) }

// Capacity returns node n's capacity of resource r and whether it has it.
func (c *Cluster) Capacity(n, r int) (Amount, bool) {
	a := c.capacity[n*len(c.Resources)+r]
	return a, a != absent
}

// TotalCapacity returns the sum of resource r's positive capacities over
// the leaves, or over the levels above when no leaf defines r (a rack
// uplink): what utilization is measured against.
func (c *Cluster) TotalCapacity(r int) Amount {
	var t Amount
	for n := range c.Nodes {
		if c.IsParent(n) == c.leafLevel[r] {
			continue
		}
		if a, ok := c.Capacity(n, r); ok && a > 0 {
			t += a
		}
	}
	return t
}

// compile turns a job's named request into indices, adding the cluster's
// default requirements for resources the job does not list, and returns
// the sorted indices of the resources the job is immune to. It fails when
// the job lists a resource no node has.
func (c *Cluster) compile(j *Job) (req []Need, immune []int32, err error) {
	req = make([]Need, 0, len(j.Request)+len(c.Defaults))
	for _, q := range j.Request {
		r, ok := c.resIndex[q.Resource]
		if !ok {
			return nil, nil, fmt.Errorf("no node has resource %q", q.Resource)
		}
		req = append(req, Need{r, q.Amount})
	}
	for _, q := range c.Defaults {
		if _, listed := Get(j.Request, q.Resource); listed {
			continue
		}
		if r, ok := c.resIndex[q.Resource]; ok {
			req = append(req, Need{r, q.Amount})
		}
	}
	if len(req) > 1 {
		slices.SortStableFunc(req, func(a, b Need) int { return cmp.Compare(a.Res, b.Res) })
	}
	if j.Traits != nil {
		for _, name := range j.Traits.Immunities {
			if r, ok := c.resIndex[name]; ok {
				immune = append(immune, r)
			}
		}
		slices.Sort(immune)
	}
	return req, immune, nil
}

// Compile returns j's compiled per-task request and immunities as the
// engine would, for placement outside the engine (library use).
func (c *Cluster) Compile(j *Job) ([]Need, []int32, error) { return c.compile(j) }

// ResourceIndex returns resource name's index and whether any node has it.
func (c *Cluster) ResourceIndex(name string) (int, bool) {
	r, ok := c.resIndex[name]
	return int(r), ok
}
