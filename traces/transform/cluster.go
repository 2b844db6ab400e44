package transform

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
)

// maxNodes is the largest cluster a transform may make: the cluster
// file's limit, which every path that creates nodes shares (a factor of
// 10^9 would otherwise ask for hundreds of gigabytes before failing).
const maxNodes = clusterconfig.MaxNodes

// Groups returns the node groups of nodes: the indices of the nodes whose
// specs are identical but for the name (capacities, attributes, power,
// parent, taints), in the order of each group's first node. A node that
// is another's parent (a rack, a switch) is in no group: it is not a
// machine to multiply.
func Groups(nodes []sim.NodeSpec) [][]int {
	parents := map[string]bool{}
	for _, n := range nodes {
		if n.Parent != "" {
			parents[n.Parent] = true
		}
	}
	var groups [][]int
	byKey := map[string]int{}
	for i, n := range nodes {
		if parents[n.Name] {
			continue
		}
		k := specKey(n)
		g, ok := byKey[k]
		if !ok {
			g = len(groups)
			byKey[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// specKey is a node's spec but its name, as a comparable string.
func specKey(n sim.NodeSpec) string {
	var b strings.Builder
	caps := slices.Clone(n.Capacity)
	slices.SortFunc(caps, func(a, b sim.Quantity) int { return strings.Compare(a.Resource, b.Resource) })
	for _, q := range caps {
		fmt.Fprintf(&b, "%q=%d;", q.Resource, q.Amount)
	}
	b.WriteByte('|')
	for _, k := range slices.Sorted(maps.Keys(n.Attributes)) {
		fmt.Fprintf(&b, "%q=%q;", k, n.Attributes[k])
	}
	fmt.Fprintf(&b, "|%#v|%q|", n.Power, n.Parent)
	for _, t := range n.Taints {
		fmt.Fprintf(&b, "%q=%q:%q;", t.Key, t.Value, t.Effect)
	}
	return b.String()
}

// Scale multiplies the node count of every group (Groups) by f > 0: a
// group of n nodes gets round(n × f) nodes, at least one, so no kind of
// node disappears. A grown group's new nodes are copies of its first node,
// named <first>+1, <first>+2 … (the next free names), placed after the
// group's last node; a shrunk group loses its last nodes. It is an error
// when the groups are too small for f to act as asked: when nothing
// changes, or when the node count ends more than one node and 5 % away
// from n × f (nodes that differ in one attribute, a serial number say,
// are groups of one).
func Scale(nodes []sim.NodeSpec, f float64) ([]sim.NodeSpec, error) {
	if !(f > 0) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("cluster factor: want a number > 0, got %s", sim.FormatNumber(f))
	}
	if want := float64(len(nodes)) * f; want > maxNodes {
		return nil, fmt.Errorf("cluster factor %s would make about %s nodes of %d, more than %d", sim.FormatNumber(f), sim.FormatNumber(math.Round(want)), len(nodes), maxNodes)
	}
	groups := Groups(nodes)
	target := make([]int, len(groups))
	machines, total := 0, 0
	for g, members := range groups {
		target[g] = max(1, int(math.Round(float64(len(members))*f)))
		machines += len(members)
		total += target[g]
	}
	if f != 1 && total == machines {
		return nil, fmt.Errorf("cluster factor %s leaves the cluster as it is: its %d node groups (sizes %s) round back to their sizes; use add_nodes, or a cluster with larger groups",
			sim.FormatNumber(f), len(groups), groupSizes(groups))
	}
	if want := float64(machines) * f; math.Abs(float64(total)-want) > max(1, 0.05*want) {
		return nil, fmt.Errorf("cluster factor %s gives %d nodes instead of about %.0f: its %d node groups (sizes %s) are too small to scale one by one (nodes that differ in an attribute are groups of their own); use add_nodes",
			sim.FormatNumber(f), total, want, len(groups), groupSizes(groups))
	}
	drop := map[int]bool{}
	after := map[int][]sim.NodeSpec{} // node index → copies placed after it
	names := nameSet(nodes)
	for g, members := range groups {
		n := len(members)
		switch {
		case target[g] < n:
			for _, i := range members[target[g]:] {
				drop[i] = true
			}
		case target[g] > n:
			first := nodes[members[0]]
			after[members[n-1]] = copies(first, target[g]-n, names)
		}
	}
	out := make([]sim.NodeSpec, 0, len(nodes)+max(0, total-machines))
	for i, n := range nodes {
		if !drop[i] {
			out = append(out, n)
		}
		out = append(out, after[i]...)
	}
	return out, nil
}

func groupSizes(groups [][]int) string {
	sizes := make([]string, len(groups))
	for i, g := range groups {
		sizes[i] = strconv.Itoa(len(g))
	}
	if len(sizes) > 8 {
		sizes = append(sizes[:8], "…")
	}
	return strings.Join(sizes, ", ")
}

// Addition is "count more nodes like node Like".
type Addition struct {
	Count int
	Like  string
}

// ParseAddition reads COUNT:NODE ("16:c001": 16 more nodes like c001).
func ParseAddition(s string) (Addition, error) {
	count, like, ok := strings.Cut(strings.TrimSpace(s), ":")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 1 || like == "" {
		return Addition{}, fmt.Errorf("want COUNT:NODE (16:c001 adds 16 nodes like c001), got %q", s)
	}
	if n > maxNodes {
		return Addition{}, fmt.Errorf("want a COUNT of at most %d nodes, got %q", maxNodes, s)
	}
	return Addition{Count: n, Like: like}, nil
}

// String is the addition as ParseAddition reads it.
func (a Addition) String() string { return strconv.Itoa(a.Count) + ":" + a.Like }

// Add appends a.Count copies of the node named a.Like after the last node
// of its group, named <like>+1, <like>+2 … (the next free names).
func Add(nodes []sim.NodeSpec, a Addition) ([]sim.NodeSpec, error) {
	like := slices.IndexFunc(nodes, func(n sim.NodeSpec) bool { return n.Name == a.Like })
	if like < 0 {
		return nil, fmt.Errorf("add nodes: no node is named %q", a.Like)
	}
	if a.Count < 1 {
		return nil, fmt.Errorf("add nodes: want a count ≥ 1, got %d", a.Count)
	}
	if a.Count > maxNodes-len(nodes) {
		return nil, fmt.Errorf("add nodes: %d nodes and %d more are more than %d", len(nodes), a.Count, maxNodes)
	}
	last := -1
	for _, members := range Groups(nodes) {
		if slices.Contains(members, like) {
			last = members[len(members)-1]
		}
	}
	if last < 0 {
		return nil, fmt.Errorf("add nodes: %q is the parent of other nodes, not a machine", a.Like)
	}
	added := copies(nodes[like], a.Count, nameSet(nodes))
	return slices.Concat(nodes[:last+1], added, nodes[last+1:]), nil
}

func nameSet(nodes []sim.NodeSpec) map[string]bool {
	names := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		names[n.Name] = true
	}
	return names
}

// copies makes k copies of n under the next free names <name>+1, … and
// adds them to names.
func copies(n sim.NodeSpec, k int, names map[string]bool) []sim.NodeSpec {
	out := make([]sim.NodeSpec, 0, k)
	for i := 1; len(out) < k; i++ {
		name := n.Name + "+" + strconv.Itoa(i)
		if names[name] {
			continue
		}
		names[name] = true
		c := n
		c.Name = name
		c.Capacity = slices.Clone(n.Capacity)
		c.Attributes = maps.Clone(n.Attributes)
		c.Taints = slices.Clone(n.Taints)
		out = append(out, c)
	}
	return out
}
