package script

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// The resource names the LXD builtins read. The simulator's resources are
// free-form; these are the names the cluster files and traces use for
// CPU cores, memory, the root disk and GPUs. A missing resource reads 0.
const (
	resCPU  = "cpu"
	resMem  = "mem"
	resDisk = "disk"
	resGPU  = "gpu"
)

// env is what a script sees of one cluster: the static part of every
// member, built once, and the live ledger of the call in progress.
type env struct {
	c     *sim.Cluster
	l     *placement.Ledger // the ledger of the current call
	names map[string]int    // node name → index
	// cpu, mem, disk, gpu are resource indices, −1 when the cluster lacks one.
	cpu, mem, disk, gpu int
	// members[n] is node n as an LXD ClusterMember (static).
	members []starlark.Value
	// capacity, free and used are the kinds of a node's amounts, one
	// field per resource of the cluster.
	capacity, free, used *kind
	// attributes[n] is node n's attributes dict, built on first use.
	attributes []starlark.Value
	// views holds the computed objects, by kind id and node (kind.view).
	views [][]*object
}

func newEnv(c *sim.Cluster) *env {
	e := &env{c: c, names: make(map[string]int, len(c.Nodes))}
	e.cpu, e.mem, e.disk, e.gpu = resIndex(c, resCPU), resIndex(c, resMem), resIndex(c, resDisk), resIndex(c, resGPU)
	if e.mem < 0 {
		e.mem = resIndex(c, "memory")
	}
	e.capacity = newEnvKind("Amounts", c.Resources, 0, func(e *env, n, r int) starlark.Value { return amount(e.capacityOf(n, r)) })
	e.free = newEnvKind("Amounts", c.Resources, 1, func(e *env, n, r int) starlark.Value { return amount(e.freeOf(n, r)) })
	e.used = newEnvKind("Amounts", c.Resources, 2, func(e *env, n, r int) starlark.Value { return amount(e.capacityOf(n, r) - e.freeOf(n, r)) })
	e.members = make([]starlark.Value, len(c.Nodes))
	for n, spec := range c.Nodes {
		e.names[spec.Name] = n
		m := memberKind.record(
			starlark.String(spec.Name),
			starlark.String(""),
			starlark.False,
			starlark.String("Online"),
			starlark.String("Fully operational"),
			starlark.String(spec.Attributes["arch"]),
			starlark.String(orDefault(spec.Attributes["failure_domain"], "default")),
			starlark.String(spec.Attributes["description"]),
			userConfig(spec.Attributes),
			groups(spec.Attributes["groups"]),
			starlark.NewList(nil),
		)
		m.Freeze()
		e.members[n] = m
	}
	return e
}

func resIndex(c *sim.Cluster, name string) int {
	if r, ok := c.ResourceIndex(name); ok {
		return r
	}
	return -1
}

// capacityOf is node n's capacity of resource r, 0 when it lacks r.
func (e *env) capacityOf(n, r int) sim.Amount {
	if r < 0 {
		return 0
	}
	if a, ok := e.c.Capacity(n, r); ok {
		return a
	}
	return 0
}

// freeOf is what is free of r on node n now, 0 when it lacks r.
func (e *env) freeOf(n, r int) sim.Amount {
	if r < 0 {
		return 0
	}
	if _, ok := e.c.Capacity(n, r); !ok || e.l == nil {
		return e.capacityOf(n, r)
	}
	return e.l.Free[n*e.l.R+r]
}

func (e *env) usedOf(n, r int) sim.Amount { return e.capacityOf(n, r) - e.freeOf(n, r) }

func (e *env) tasksOn(n int) int {
	if e.l == nil {
		return 0
	}
	return int(e.l.Tasks[n])
}

// amount is a in the resource's unit: an int when whole, else a float.
func amount(a sim.Amount) starlark.Value {
	if a%sim.Milli == 0 {
		return starlark.MakeInt64(int64(a / sim.Milli))
	}
	return starlark.Float(a.Float())
}

// userConfig is LXD's member config: the node attributes whose keys start
// with "user.", keys kept whole, in key order.
func userConfig(attrs map[string]string) *starlark.Dict { return attrDict(attrs, "user.") }

// attributes is every node attribute, in key order.
func attributes(attrs map[string]string) *starlark.Dict { return attrDict(attrs, "") }

// attrDict is the attributes whose keys start with prefix, in key order.
func attrDict(attrs map[string]string, prefix string) *starlark.Dict {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	d := starlark.NewDict(len(keys))
	for _, k := range keys {
		_ = d.SetKey(starlark.String(k), starlark.String(attrs[k]))
	}
	return d
}

// groups splits the comma-separated "groups" attribute (LXD cluster
// groups); an empty attribute is no group.
func groups(s string) *starlark.List {
	var out []starlark.Value
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, starlark.String(g))
		}
	}
	return starlark.NewList(out)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
