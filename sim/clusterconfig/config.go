package clusterconfig

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// Limits that keep a cluster and its sums within sim.Amount.
const (
	// MaxNodes is the largest cluster a file may describe.
	MaxNodes = 1_000_000
	// MaxAmount bounds one node's amount of one resource, and the cluster's
	// total of one resource, in units.
	MaxAmount = 9_000_000_000_000_000
	// maxStart bounds a group's first index.
	maxStart = 1_000_000_000
)

// Config is a cluster file as written: groups and single nodes in file order.
// Decode fills it; Validate checks it; NodeSpecs expands it.
type Config struct {
	File  string // the name used in messages
	Name  string // optional label
	Power *Power // default for every node without its own; nil for none
	// Defaults are what every job requires of a resource it does not list
	// (Bistro entitlements), in file order.
	Defaults []sim.Quantity
	// Limits are the most a user and a queue may run at once (limits.go).
	Limits     sim.Limits
	NodeGroups []NodeGroup
	Nodes      []Node
	where
}

// NodeGroup is Count nodes named Prefix followed by the index Start,
// Start+1, …, Start+Count−1, zero-padded to the width of the last index.
type NodeGroup struct {
	Prefix     string
	Count      int
	Start      int
	Resources  []sim.Quantity // per node, in file order
	Attributes []Attribute    // in file order
	Power      *Power         // overrides Config.Power; nil to inherit it
	Parent     string         // every node of the group has this parent
	Taints     []sim.Taint
	where
}

// Node is one named node.
type Node struct {
	Name       string
	Resources  []sim.Quantity
	Attributes []Attribute
	Power      *Power
	Parent     string
	Taints     []sim.Taint
	where
}

// Attribute is one key/value label of a node (zone, rack, arch…).
type Attribute struct{ Key, Value string }

// Power is a node's power model: IdleW + (MaxW − IdleW) · utilization of
// Resource, in watts. An empty Resource means cpu when the cluster has it,
// else its first resource (sim.Cluster.PowerResource).
type Power struct {
	IdleW    float64
	MaxW     float64
	Resource string
	// OffW is the draw asleep; the switches into and out of sleep take
	// SwitchOffS and SwitchOnS seconds and SwitchOffJ and SwitchOnJ joules,
	// or draw SwitchOffW and SwitchOnW watts all along (one or the other;
	// used when the replay powers idle nodes down).
	OffW                               float64
	SwitchOffS, SwitchOffJ, SwitchOffW float64
	SwitchOnS, SwitchOnJ, SwitchOnW    float64
	where
}

// model is the engine's power model of pw.
func (pw *Power) model() sim.PowerModel {
	sw := func(s, j, w float64) sim.PowerSwitch {
		t := sim.SecondsToTime(s)
		if t <= 0 {
			return sim.PowerSwitch{}
		}
		if w > 0 {
			return sim.PowerSwitch{Time: t, W: w}
		}
		return sim.PowerSwitch{Time: t, W: j / t.Seconds()}
	}
	return sim.PowerModel{IdleW: pw.IdleW, MaxW: pw.MaxW, Resource: pw.Resource, OffW: pw.OffW,
		SwitchOff: sw(pw.SwitchOffS, pw.SwitchOffJ, pw.SwitchOffW), SwitchOn: sw(pw.SwitchOnS, pw.SwitchOnJ, pw.SwitchOnW)}
}

// where remembers the lines an item and its fields were written on, and
// which fields could not be decoded (Validate skips those: they are already
// reported). Items built in Go have no lines; their messages say so by
// leaving the line out.
type where struct {
	line  int             // the item's first line
	lines map[string]int  // field → line of its value
	bad   map[string]bool // field → could not be decoded
}

// at returns the line of field, or of the item when the field has none.
func (w *where) at(field string) int {
	if l, ok := w.lines[field]; ok {
		return l
	}
	return w.line
}

func (w *where) set(field string, line int) {
	if w.lines == nil {
		w.lines = map[string]int{}
	}
	w.lines[field] = line
}

func (w *where) setBad(field string) {
	if w.bad == nil {
		w.bad = map[string]bool{}
	}
	w.bad[field] = true
}

// given reports whether field was written in the file.
func (w *where) given(field string) bool {
	_, ok := w.lines[field]
	return ok || w.bad[field]
}

// Error is one problem of a cluster file: where it is and what is wrong.
type Error struct {
	File  string
	Line  int    // 1-based; 0 when unknown
	Field string // key path, e.g. node_groups[0].resources.cpu; "" for the file
	Msg   string
}

func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	if s != "" {
		s += ": "
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// problems collects Errors.
type problems struct {
	file string
	list []*Error
}

func (p *problems) add(line int, field, format string, args ...any) {
	p.list = append(p.list, &Error{File: p.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// err joins the problems, sorted by line (stable: same line, found order),
// one per line of the message; nil when there are none.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	slices.SortStableFunc(p.list, func(a, b *Error) int { return a.Line - b.Line })
	errs := make([]error, len(p.list))
	for i, e := range p.list {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// Load reads a cluster file and returns its nodes in index order.
func Load(path string) ([]sim.NodeSpec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse reads a cluster file's content; name is the file name used in
// messages. It reports every problem of the file at once.
func Parse(data []byte, name string) ([]sim.NodeSpec, error) {
	c, p := decode(data, name)
	if c != nil {
		c.validate(p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return c.NodeSpecs(), nil
}

// LoadConfig reads and validates a cluster file: NodeSpecs() expands its
// nodes and Defaults holds its default requirements.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, p := decode(data, path)
	if c != nil {
		c.validate(p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// LoadCluster reads and compiles a cluster file, with its defaults.
func LoadCluster(path string) (*sim.Cluster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCluster(data, path)
}

// ParseCluster is Parse followed by sim.NewCluster, with the file's
// defaults set on the cluster.
func ParseCluster(data []byte, name string) (*sim.Cluster, error) {
	c, p := decode(data, name)
	if c != nil {
		c.validate(p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	cl, err := sim.NewCluster(c.NodeSpecs())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cl.Defaults = c.Defaults
	return cl, nil
}

// Decode reads a cluster file's structure: unknown keys, values of the
// wrong type and YAML syntax are its errors. It returns what it could read
// even when it reports problems (nil only when the YAML itself is broken);
// Validate then checks the values.
func Decode(data []byte, name string) (*Config, error) {
	c, p := decode(data, name)
	return c, p.err()
}

// Validate checks the values of c: amounts ≥ 0, counts ≥ 1, unique node
// names, idle_w ≤ max_w, a power resource the node has… It reports every
// problem at once, one per line.
func (c *Config) Validate() error {
	p := &problems{file: c.File}
	c.validate(p)
	return p.err()
}

// width is the number of decimal digits of n ≥ 0.
func width(n int) int { return len(strconv.Itoa(n)) }

// nodeName is the name of the node with index i of group g.
func (g *NodeGroup) nodeName(i int) string {
	s := strconv.Itoa(i)
	w := width(g.Start + g.Count - 1)
	b := make([]byte, 0, len(g.Prefix)+w)
	b = append(b, g.Prefix...)
	for range w - len(s) {
		b = append(b, '0')
	}
	return string(append(b, s...))
}

// NodeSpecs expands c into nodes, in index order: the groups in file order,
// each from its first index to its last, then the single nodes in file
// order. Call it on a Config that Validate accepts.
func (c *Config) NodeSpecs() []sim.NodeSpec {
	n := len(c.Nodes)
	for _, g := range c.NodeGroups {
		n += max(g.Count, 0)
	}
	specs := make([]sim.NodeSpec, 0, n)
	levels := map[string]bool{} // parents draw nothing unless they say so
	for _, g := range c.NodeGroups {
		levels[g.Parent] = true
	}
	for _, nd := range c.Nodes {
		levels[nd.Parent] = true
	}
	add := func(name string, res []sim.Quantity, attrs []Attribute, pw *Power, parent string, taints []sim.Taint) {
		s := sim.NodeSpec{Name: name, Capacity: slices.Clone(res), Parent: parent, Taints: taints}
		if len(attrs) > 0 {
			s.Attributes = make(map[string]string, len(attrs))
			for _, a := range attrs {
				s.Attributes[a.Key] = a.Value
			}
		}
		if pw == nil && !levels[name] {
			pw = c.Power
		}
		if pw != nil {
			s.Power = pw.model()
		}
		specs = append(specs, s)
	}
	for gi := range c.NodeGroups {
		g := &c.NodeGroups[gi]
		for i := g.Start; i < g.Start+g.Count; i++ {
			add(g.nodeName(i), g.Resources, g.Attributes, g.Power, g.Parent, g.Taints)
		}
	}
	for _, nd := range c.Nodes {
		add(nd.Name, nd.Resources, nd.Attributes, nd.Power, nd.Parent, nd.Taints)
	}
	return specs
}
