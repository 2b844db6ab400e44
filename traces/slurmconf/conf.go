package slurmconf

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// maxErrors caps the problems one Parse reports.
const maxErrors = 20

// Load reads a slurm.conf, or the output of `scontrol show node
// --oneliner` (and `scontrol show partition --oneliner`), from path.
func Load(path string) (*Cluster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a slurm.conf or scontrol's one-line output held in memory;
// name is used in messages. Every problem is reported, one per line of the
// error, as file:line: field KEY: what is wrong (up to 20).
func Parse(name string, data []byte) (*Cluster, error) {
	p := &parser{file: name, nodeIndex: map[string]int{}, partIndex: map[string]int{}}
	for _, r := range splitRecords(data) {
		p.record(r)
	}
	p.resolvePartitions()
	if len(p.nodes) == 0 && len(p.errs) == 0 {
		p.errs = append(p.errs, &traces.ParseError{File: name, Err: errors.New("no nodes: want NodeName= lines (slurm.conf) or scontrol show node --oneliner output")})
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return p.cluster(), nil
}

// parser holds a file's nodes and partitions as they are read.
type parser struct {
	file         string
	errs         []error
	nodeDefaults []pair // NodeName=DEFAULT pairs so far
	partDefaults []pair
	nodes        []*node
	nodeIndex    map[string]int
	parts        []*partDraft
	partIndex    map[string]int
	defaultPart  string
}

// node is one node as read.
type node struct {
	name       string
	cpus, mem  int64
	gres       gres
	gresRaw    string
	features   []string
	weight     string
	arch       string
	partitions []string // partitions it belongs to, in partition order
}

// partDraft is a partition before its Nodes= is resolved.
type partDraft struct {
	Partition
	nodes pair // the Nodes= pair; key "" when absent
}

func (p *parser) fail(at pair, format string, args ...any) {
	if len(p.errs) == maxErrors {
		p.errs = append(p.errs, fmt.Errorf("%s: more problems not shown", p.file))
	}
	if len(p.errs) > maxErrors {
		return
	}
	p.errs = append(p.errs, &traces.ParseError{File: p.file, Line: at.line, Field: at.name, Err: fmt.Errorf(format, args...)})
}

// record reads one logical line.
func (p *parser) record(r record) {
	first := r.pairs[0]
	switch first.key {
	case "nodename":
		if strings.EqualFold(first.value, "DEFAULT") {
			p.nodeDefaults = append(p.nodeDefaults, r.pairs[1:]...)
			return
		}
		p.nodeLine(record{pairs: append(append([]pair{}, p.nodeDefaults...), r.pairs...)}, first)
	case "partitionname":
		if strings.EqualFold(first.value, "DEFAULT") {
			p.partDefaults = append(p.partDefaults, r.pairs[1:]...)
			return
		}
		p.partitionLine(record{pairs: append(append([]pair{}, p.partDefaults...), r.pairs...)}, first)
	case "":
		if strings.EqualFold(first.name, "include") {
			p.fail(first, "Include is not followed: put the included node and partition lines in one file")
			return
		}
		p.fail(first, "not Key=Value")
	}
	// Any other line is a setting of the controller (ClusterName=,
	// SchedulerType=…): not about nodes, ignored.
}

// getAny returns the last pair of r with one of keys: a node's own value
// comes after its DEFAULT values, and aliases (Feature, Features) are one
// key.
func getAny(r record, keys ...string) (pair, bool) {
	for i := len(r.pairs) - 1; i >= 0; i-- {
		for _, k := range keys {
			if r.pairs[i].key == k {
				return r.pairs[i], true
			}
		}
	}
	return pair{}, false
}

// count reads a whole number ≥ min of key (0 and false when absent).
func (p *parser) count(r record, min int64, keys ...string) (int64, bool) {
	at, ok := getAny(r, keys...)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(at.value, 10, 64)
	if err != nil || v < min || v > 1<<50 {
		p.fail(at, "want a whole number ≥ %d, got %q", min, at.value)
		return 0, false
	}
	return v, true
}

// nodeLine reads a NodeName line (with its defaults in front).
func (p *parser) nodeLine(r record, first pair) {
	names, err := ExpandHostlist(first.value)
	if err != nil {
		p.fail(first, "%v", err)
		return
	}
	if len(p.nodes)+len(names) > MaxHosts {
		p.fail(first, "more than %d nodes", MaxHosts)
		return
	}
	proto := node{mem: 1}
	// CPUs: scontrol's effective count (less specialized cores), else the
	// configured one, else the product of the topology, as Slurm derives it.
	if v, ok := p.count(r, 1, "cpuefctv"); ok {
		proto.cpus = v
	} else if v, ok := p.count(r, 1, "cpus", "procs", "cputot"); ok {
		proto.cpus = v
	} else {
		boards, _ := p.count(r, 1, "boards")
		perBoard, _ := p.count(r, 1, "socketsperboard")
		sockets, ok := p.count(r, 1, "sockets")
		if !ok {
			sockets = max(boards, 1) * max(perBoard, 1)
		}
		cores, _ := p.count(r, 1, "corespersocket")
		threads, _ := p.count(r, 1, "threadspercore")
		proto.cpus = sockets * max(cores, 1) * max(threads, 1)
	}
	if v, ok := p.count(r, 1, "realmemory"); ok {
		proto.mem = v
	}
	if at, ok := getAny(r, "gres"); ok {
		g, err := parseGres(at.value)
		if err != nil {
			p.fail(at, "%v", err)
		}
		proto.gres = g
		if at.value != "" && !strings.EqualFold(at.value, "(null)") {
			proto.gresRaw = at.value
		}
	}
	if at, ok := getAny(r, "feature", "features", "availablefeatures"); ok {
		proto.features = list(at.value)
	}
	if v, ok := p.count(r, 0, "weight"); ok {
		proto.weight = strconv.FormatInt(v, 10)
	}
	if at, ok := getAny(r, "arch"); ok && !strings.EqualFold(at.value, "(null)") {
		proto.arch = at.value
	}
	var member []string
	if at, ok := getAny(r, "partitions"); ok {
		member = list(at.value)
	}
	for _, name := range names {
		if _, dup := p.nodeIndex[name]; dup {
			p.fail(first, "node %s is defined twice", name)
			continue
		}
		n := proto
		n.name = name
		p.nodeIndex[name] = len(p.nodes)
		p.nodes = append(p.nodes, &n)
		for _, part := range member {
			p.partition(part).Nodes = append(p.partition(part).Nodes, name)
		}
	}
}

// list splits a comma-separated value; "(null)" and "" are empty.
func list(v string) []string {
	if v == "" || strings.EqualFold(v, "(null)") {
		return nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// partition returns the draft of partition name, made (without a line)
// when a node's Partitions= names it first.
func (p *parser) partition(name string) *partDraft {
	if i, ok := p.partIndex[name]; ok {
		return p.parts[i]
	}
	d := &partDraft{Partition: Partition{Name: name, MaxTime: sim.NoWalltime, DefaultTime: sim.NoWalltime}}
	p.partIndex[name] = len(p.parts)
	p.parts = append(p.parts, d)
	return d
}

// partitionLine reads a PartitionName line (with its defaults in front).
func (p *parser) partitionLine(r record, first pair) {
	if first.value == "" || strings.ContainsAny(first.value, ", ") {
		p.fail(first, "want one partition name, got %q", first.value)
		return
	}
	if i, ok := p.partIndex[first.value]; ok && p.parts[i].Line > 0 {
		p.fail(first, "partition %s is defined twice (line %d)", first.value, p.parts[i].Line)
		return
	}
	d := p.partition(first.value)
	d.Line = first.line
	if at, ok := getAny(r, "maxtime"); ok {
		d.MaxTime = p.limit(at)
	}
	if at, ok := getAny(r, "defaulttime"); ok && !strings.EqualFold(at.value, "NONE") {
		d.DefaultTime = p.limit(at)
	}
	if at, ok := getAny(r, "default"); ok {
		switch strings.ToUpper(at.value) {
		case "YES":
			p.defaultPart = d.Name // the last one wins, as in Slurm
		case "NO":
		default:
			p.fail(at, "want YES or NO, got %q", at.value)
		}
	}
	if at, ok := getAny(r, "nodes"); ok {
		d.nodes = at
	}
}

// limit reads a MaxTime or DefaultTime: a Slurm time or UNLIMITED.
func (p *parser) limit(at pair) sim.Time {
	t, unlimited, err := ParseDuration(at.value)
	if err != nil {
		p.fail(at, "%v, got %q", err, at.value)
		return sim.NoWalltime
	}
	if unlimited {
		return sim.NoWalltime
	}
	return t
}

// resolvePartitions expands every Nodes= now that all nodes are known
// (slurm.conf may define partitions before their nodes).
func (p *parser) resolvePartitions() {
	for _, d := range p.parts {
		if d.nodes.key == "" {
			continue
		}
		var names []string
		if strings.EqualFold(d.nodes.value, "ALL") {
			for _, n := range p.nodes {
				names = append(names, n.name)
			}
		} else {
			var err error
			if names, err = ExpandHostlist(d.nodes.value); err != nil {
				p.fail(d.nodes, "%v", err)
				continue
			}
		}
		for _, name := range names {
			if _, ok := p.nodeIndex[name]; !ok {
				p.fail(d.nodes, "node %s is not defined by a NodeName line", name)
				continue
			}
			d.Nodes = append(d.Nodes, name)
		}
	}
	for _, d := range p.parts {
		seen := map[string]bool{}
		for _, name := range d.Nodes {
			if seen[name] {
				continue
			}
			seen[name] = true
			n := p.nodes[p.nodeIndex[name]]
			n.partitions = append(n.partitions, d.Name)
		}
	}
}

// cluster builds the result.
func (p *parser) cluster() *Cluster {
	c := &Cluster{File: p.file, Default: p.defaultPart}
	for _, d := range p.parts {
		c.Partitions = append(c.Partitions, d.Partition)
	}
	for _, n := range p.nodes {
		c.Nodes = append(c.Nodes, n.spec())
	}
	return c
}

// spec is the node as the simulator sees it: cpu (cores), mem (MB), gpu
// (devices) and a tag per partition; attributes for the rest.
func (n *node) spec() sim.NodeSpec {
	s := sim.NodeSpec{Name: n.name, Attributes: map[string]string{}}
	s.Capacity = []sim.Quantity{{Resource: "cpu", Amount: sim.Units(n.cpus)}, {Resource: "mem", Amount: sim.Units(n.mem)}}
	if n.gres.gpus > 0 {
		s.Capacity = append(s.Capacity, sim.Quantity{Resource: "gpu", Amount: sim.Units(n.gres.gpus)})
	}
	for _, part := range n.partitions {
		s.Capacity = append(s.Capacity, sim.Quantity{Resource: PartitionResource(part)})
	}
	if len(n.partitions) > 0 {
		s.Attributes[AttrPartitions] = strings.Join(n.partitions, ",")
	}
	if len(n.features) > 0 {
		s.Attributes[AttrFeatures] = strings.Join(n.features, ",")
		for _, f := range n.features {
			s.Attributes[FeaturePrefix+f] = "yes"
		}
	}
	if len(n.gres.types) > 0 {
		s.Attributes[AttrGPUModel] = strings.Join(n.gres.types, ",")
	}
	if n.gresRaw != "" {
		s.Attributes[AttrGres] = n.gresRaw
	}
	if n.weight != "" {
		s.Attributes[AttrWeight] = n.weight
	}
	if n.arch != "" {
		s.Attributes[AttrArch] = n.arch
	}
	return s
}
