package clusterconfig

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
)

// Encode writes nodes as a cluster file that Parse reads back into the same
// nodes, in the same order: names, capacities (in order, wards as -inf),
// attributes, power models, parents and taints. Runs of identical nodes
// named prefix + index (n000, n001, …) become node groups as long as no
// single node comes before them, since a file lists its groups first;
// the rest are single nodes. comment, when not empty, opens the file as
// YAML comment lines. Trace converters use it to keep the cluster a trace
// carries (an SWF header, a Batsim nb_res, machine events).
func Encode(nodes []sim.NodeSpec, comment string) ([]byte, error) {
	return EncodeConfig(nodes, nil, comment)
}

// EncodeConfig is Encode with the file's default requirements (Config.Defaults),
// which ParseConfig reads back.
func EncodeConfig(nodes []sim.NodeSpec, defaults []sim.Quantity, comment string) ([]byte, error) {
	if len(nodes) == 0 {
		return nil, fmt.Errorf("clusterconfig: no nodes to encode")
	}
	var groups, singles []*yaml.Node
	rest := nodes
	for len(rest) > 0 && len(singles) == 0 {
		n, prefix, start := groupRun(rest)
		if n == 0 {
			break
		}
		groups = append(groups, groupNode(rest[0], prefix, start, n))
		rest = rest[n:]
	}
	for i := range rest {
		singles = append(singles, specNode(&rest[i], []*yaml.Node{str("name"), str(rest[i].Name)}))
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	if len(defaults) > 0 {
		root.Content = append(root.Content, str("defaults"), quantities(defaults))
	}
	if len(groups) > 0 {
		root.Content = append(root.Content, str("node_groups"), &yaml.Node{Kind: yaml.SequenceNode, Content: groups})
	}
	if len(singles) > 0 {
		root.Content = append(root.Content, str("nodes"), &yaml.Node{Kind: yaml.SequenceNode, Content: singles})
	}
	var buf bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
		if comment != "" {
			fmt.Fprintf(&buf, "# %s\n", line)
		}
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	// Read it back: what cannot be written exactly (an empty taint
	// effect, an amount beyond MaxAmount, bad watts) is an error here
	// rather than a different cluster later.
	cfg, err := ParseConfig(buf.Bytes(), "encoded cluster")
	if err != nil {
		return nil, fmt.Errorf("clusterconfig: the cluster cannot be written as a cluster file: %w", err)
	}
	if !slices.Equal(cfg.Defaults, defaults) {
		return nil, fmt.Errorf("clusterconfig: the defaults %v cannot be written exactly as a cluster file", defaults)
	}
	back := cfg.NodeSpecs()
	for i := range nodes {
		if back[i].Name != nodes[i].Name || !sameSpec(&back[i], &nodes[i]) {
			return nil, fmt.Errorf("clusterconfig: node %s cannot be written exactly as a cluster file (read back: %+v)", nodes[i].Name, back[i])
		}
	}
	return buf.Bytes(), nil
}

// ParseConfig reads and validates a cluster file's content, as LoadConfig
// does a file: NodeSpecs() expands its nodes and Defaults holds its
// default requirements.
func ParseConfig(data []byte, name string) (*Config, error) {
	c, p := decode(data, name)
	if c != nil {
		c.validate(p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// quantities is a flow mapping of resource → amount, in order.
func quantities(qs []sim.Quantity) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for _, q := range qs {
		m.Content = append(m.Content, str(q.Resource), num(amountText(q.Amount)))
	}
	return m
}

// groupRun returns how many nodes from the first one form a node group,
// with its prefix and first index; 0 when the first node's name is not
// prefix + index as a group would spell it.
func groupRun(nodes []sim.NodeSpec) (n int, prefix string, start int) {
	prefix, start, width, ok := splitIndex(nodes[0].Name)
	if !ok {
		return 0, "", 0
	}
	n = 1
	for n < len(nodes) && start+n <= maxStart && n < MaxNodes {
		p, i, w, ok := splitIndex(nodes[n].Name)
		if !ok || p != prefix || i != start+n || w != width || !sameSpec(&nodes[0], &nodes[n]) {
			break
		}
		n++
	}
	// A group pads its indices to the width of its last one: shorten the
	// run until that is the width the names use.
	for n > 0 && len(strconv.Itoa(start+n-1)) != width {
		n--
	}
	if n == 0 || len(strconv.Itoa(start+n-1)) != width {
		return 0, "", 0
	}
	return n, prefix, start
}

// splitIndex splits "n007" into "n", 7 and the digit count 3. The prefix
// must be non-empty and the index within a group's start range.
func splitIndex(name string) (prefix string, index, width int, ok bool) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	digits := name[i:]
	if i == 0 || digits == "" || len(digits) > 9 {
		return "", 0, 0, false
	}
	index, _ = strconv.Atoi(digits)
	return name[:i], index, len(digits), index <= maxStart
}

// sameSpec reports whether two nodes differ only by name.
func sameSpec(a, b *sim.NodeSpec) bool {
	return slices.Equal(a.Capacity, b.Capacity) && maps.Equal(a.Attributes, b.Attributes) &&
		reflect.DeepEqual(a.Power, b.Power) && a.Parent == b.Parent && slices.Equal(a.Taints, b.Taints)
}

func groupNode(s sim.NodeSpec, prefix string, start, count int) *yaml.Node {
	head := []*yaml.Node{str("prefix"), str(prefix), str("count"), num(strconv.Itoa(count))}
	if start != 0 {
		head = append(head, str("start"), num(strconv.Itoa(start)))
	}
	return specNode(&s, head)
}

// specNode is the mapping of one node or group: head, then resources,
// attributes (sorted by key), power, parent and taints.
func specNode(s *sim.NodeSpec, head []*yaml.Node) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Content: head}
	m.Content = append(m.Content, str("resources"), quantities(s.Capacity))
	if len(s.Attributes) > 0 {
		attrs := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range slices.Sorted(maps.Keys(s.Attributes)) {
			attrs.Content = append(attrs.Content, str(k), str(s.Attributes[k]))
		}
		m.Content = append(m.Content, str("attributes"), attrs)
	}
	if s.Power != (sim.PowerModel{}) {
		pw := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
			str("idle_w"), num(strconv.FormatFloat(s.Power.IdleW, 'f', -1, 64)),
			str("max_w"), num(strconv.FormatFloat(s.Power.MaxW, 'f', -1, 64)),
		}}
		if s.Power.Resource != "" {
			pw.Content = append(pw.Content, str("resource"), str(s.Power.Resource))
		}
		// Power-down: the sleep draw, and each switch as its time and watts.
		if s.Power.OffW != 0 {
			pw.Content = append(pw.Content, str("off_w"), num(strconv.FormatFloat(s.Power.OffW, 'f', -1, 64)))
		}
		for _, sw := range []struct {
			name string
			sw   sim.PowerSwitch
		}{{"switch_off", s.Power.SwitchOff}, {"switch_on", s.Power.SwitchOn}} {
			if sw.sw != (sim.PowerSwitch{}) {
				pw.Content = append(pw.Content, str(sw.name+"_s"), num(sim.FormatSeconds(sw.sw.Time)),
					str(sw.name+"_w"), num(strconv.FormatFloat(sw.sw.W, 'f', -1, 64)))
			}
		}
		m.Content = append(m.Content, str("power"), pw)
	}
	if s.Parent != "" {
		m.Content = append(m.Content, str("parent"), str(s.Parent))
	}
	if len(s.Taints) > 0 {
		ts := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, t := range s.Taints {
			tm := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("key"), str(t.Key)}}
			if t.Value != "" {
				tm.Content = append(tm.Content, str("value"), str(t.Value))
			}
			tm.Content = append(tm.Content, str("effect"), str(t.Effect))
			ts.Content = append(ts.Content, tm)
		}
		m.Content = append(m.Content, str("taints"), ts)
	}
	return m
}

// amountText is an amount in units, exact: an integer, a decimal with up
// to three decimals, or -inf for a ward.
func amountText(a sim.Amount) string {
	if a == sim.Ward {
		return "-inf"
	}
	return a.String()
}

// str is a string scalar; the encoder quotes it when it would read as
// anything else (a number, a boolean, null).
func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// num is a number written as is.
func num(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }
