package clusterconfig

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// validate adds every problem of c's values to p.
func (c *Config) validate(p *problems) {
	if c.Power != nil {
		c.Power.validate(p, "power")
	}
	v := validator{problems: p, c: c, names: map[string]string{}, totals: map[string]sim.Amount{}, over: map[string]bool{}}
	// Count first, so that names are never made for a cluster too big.
	n := len(c.Nodes)
	for _, g := range c.NodeGroups {
		if g.Count >= 1 && g.Count <= MaxNodes {
			n += g.Count
		}
	}
	if n > MaxNodes {
		p.add(c.line, "", "the cluster has %d nodes, more than %d", n, MaxNodes)
		v.tooBig = true
	}
	v.levels = map[string]bool{}
	for _, g := range c.NodeGroups {
		v.levels[g.Parent] = true
	}
	for _, n := range c.Nodes {
		v.levels[n.Parent] = true
	}
	for gi := range c.NodeGroups {
		v.group(&c.NodeGroups[gi], fmt.Sprintf("node_groups[%d]", gi))
	}
	for ni := range c.Nodes {
		v.node(&c.Nodes[ni], fmt.Sprintf("nodes[%d]", ni))
	}
	v.parents()
	v.signs.check(p)
	if len(c.NodeGroups)+len(c.Nodes) == 0 && !c.bad[""] {
		p.add(c.line, "", "no nodes: add node_groups or nodes")
	}
}

type validator struct {
	*problems
	c      *Config
	names  map[string]string // node name → path of the item that defines it
	tooBig bool              // more than MaxNodes: names are no longer checked
	totals map[string]sim.Amount
	over   map[string]bool // resources whose total overflowed (reported once)
	levels map[string]bool // names given as a parent: levels, which need no power
	signs  signs
}

// parents checks that every parent names a node and that following
// parents never comes back to where it started.
func (v *validator) parents() {
	if v.tooBig {
		return
	}
	parentOf := map[string]string{}
	check := func(w *where, parent, path string, names func(yield func(string) bool)) {
		if parent == "" {
			return
		}
		if _, ok := v.names[parent]; !ok {
			v.add(w.at("parent"), path+".parent", "%s is not a node of the cluster", parent)
			return
		}
		for name := range names {
			parentOf[name] = parent
		}
	}
	for gi := range v.c.NodeGroups {
		g := &v.c.NodeGroups[gi]
		check(&g.where, g.Parent, fmt.Sprintf("node_groups[%d]", gi), func(yield func(string) bool) {
			for i := g.Start; i < g.Start+g.Count; i++ {
				if !yield(g.nodeName(i)) {
					return
				}
			}
		})
	}
	for ni := range v.c.Nodes {
		n := &v.c.Nodes[ni]
		check(&n.where, n.Parent, fmt.Sprintf("nodes[%d]", ni), func(yield func(string) bool) { yield(n.Name) })
	}
	inCycle := map[string]bool{} // reported once per cycle
	for ni := range v.c.Nodes {
		n := &v.c.Nodes[ni]
		seen := map[string]bool{n.Name: true}
		for p := parentOf[n.Name]; p != "" && !inCycle[n.Name]; p = parentOf[p] {
			if seen[p] {
				v.add(n.at("parent"), fmt.Sprintf("nodes[%d].parent", ni), "parents form a cycle through %s", p)
				for s := range seen {
					inCycle[s] = true
				}
				break
			}
			seen[p] = true
		}
	}
}

// required reports a missing or empty string field.
func (v *validator) required(w *where, s, field, path string) bool {
	if s != "" || w.bad[field] {
		return s != ""
	}
	if w.line > 0 && !w.given(field) {
		v.add(w.line, path, "missing %s", field)
	} else {
		v.add(w.at(field), join(path, field), "must not be empty")
	}
	return false
}

func (v *validator) group(g *NodeGroup, path string) {
	if g.bad[""] {
		return
	}
	ok := v.required(&g.where, g.Prefix, "prefix", path)
	if !g.bad["count"] {
		switch {
		case g.Count < 1 && g.line > 0 && !g.given("count"):
			v.add(g.line, path, "missing count")
			ok = false
		case g.Count < 1:
			v.add(g.at("count"), path+".count", "must be ≥ 1")
			ok = false
		case g.Count > MaxNodes:
			v.add(g.at("count"), path+".count", "must be at most %d", MaxNodes)
			ok = false
		}
	} else {
		ok = false
	}
	if !g.bad["start"] && (g.Start < 0 || g.Start > maxStart) {
		v.add(g.at("start"), path+".start", "must be between 0 and %d", maxStart)
		ok = false
	} else if g.bad["start"] {
		ok = false
	}
	v.resources(&g.where, g.Resources, max(g.Count, 0), path)
	v.power(&g.where, g.Resources, g.Power, path)
	if !ok {
		return
	}
	if v.tooBig {
		return
	}
	for i := g.Start; i < g.Start+g.Count; i++ {
		name := g.nodeName(i)
		if other, dup := v.names[name]; dup {
			v.add(g.line, path, "node name %s is also made by %s", name, other)
			break // one message per group is enough
		}
		v.names[name] = path
	}
}

func (v *validator) node(n *Node, path string) {
	if n.bad[""] {
		return
	}
	ok := v.required(&n.where, n.Name, "name", path)
	v.resources(&n.where, n.Resources, 1, path)
	if n.Power != nil || !v.levels[n.Name] { // a level does not inherit the default power model
		v.power(&n.where, n.Resources, n.Power, path)
	}
	if !ok || v.tooBig {
		return
	}
	if other, dup := v.names[n.Name]; dup {
		v.add(n.at("name"), path+".name", "node name %s is also made by %s", n.Name, other)
		return
	}
	v.names[n.Name] = path
}

// resources checks amounts (within MaxAmount; each resource of one sign,
// signs.go) and keeps each resource's cluster total within MaxAmount (n
// nodes have these resources).
func (v *validator) resources(w *where, qs []sim.Quantity, n int, path string) {
	limit := sim.Units(MaxAmount)
	for _, q := range qs {
		field := "resources." + q.Resource
		if q.Amount > limit || (q.Amount < -limit && q.Amount != sim.Ward) {
			v.add(w.at(field), join(path, field), "must be at most %d", MaxAmount)
			continue
		}
		v.signs.note(w, q, path)
		t := v.totals[q.Resource]
		if q.Amount <= 0 {
			continue // a tag, a shortcoming or a ward adds nothing to the total
		}
		if !v.over[q.Resource] && sim.Amount(n) > (limit-t)/q.Amount {
			v.add(w.at(field), join(path, field), "the cluster's total of %s exceeds %d", q.Resource, MaxAmount)
			v.over[q.Resource] = true
			continue
		}
		v.totals[q.Resource] = t + q.Amount*sim.Amount(n)
	}
}

// power checks an item's own power model, and that the model in force
// (its own, else the top-level one) names a resource the item has.
func (v *validator) power(w *where, qs []sim.Quantity, own *Power, path string) {
	if own != nil {
		own.validate(v.problems, path+".power")
	}
	pw, from := own, ""
	if pw == nil {
		pw, from = v.c.Power, " (from the top-level power)"
	}
	if pw == nil || pw.bad[""] || pw.bad["resource"] || pw.Resource == "" || w.bad["resources"] {
		return
	}
	if _, ok := sim.Get(qs, pw.Resource); ok {
		return
	}
	if own != nil {
		v.add(own.at("resource"), path+".power.resource", "%s is not among the node's resources", pw.Resource)
	} else {
		v.add(w.line, path, "power.resource %s%s is not among the node's resources", pw.Resource, from)
	}
}

// validate checks 0 ≤ idle_w ≤ max_w and a non-empty resource.
func (pw *Power) validate(p *problems, path string) {
	if pw.bad[""] {
		return
	}
	for _, f := range []string{"idle_w", "max_w"} {
		if pw.line > 0 && !pw.given(f) {
			p.add(pw.line, path, "missing %s", f)
		}
	}
	if !pw.bad["idle_w"] && pw.IdleW < 0 {
		p.add(pw.at("idle_w"), path+".idle_w", "must be ≥ 0")
	}
	if !pw.bad["idle_w"] && !pw.bad["max_w"] && pw.given("max_w") == pw.given("idle_w") && pw.MaxW < pw.IdleW {
		p.add(pw.at("max_w"), path+".max_w", "must be ≥ idle_w (%g)", pw.IdleW)
	}
	if pw.given("resource") && !pw.bad["resource"] && pw.Resource == "" {
		p.add(pw.at("resource"), path+".resource", "must not be empty")
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"off_w", pw.OffW}, {"switch_off_s", pw.SwitchOffS}, {"switch_off_j", pw.SwitchOffJ}, {"switch_off_w", pw.SwitchOffW},
		{"switch_on_s", pw.SwitchOnS}, {"switch_on_j", pw.SwitchOnJ}, {"switch_on_w", pw.SwitchOnW}} {
		if !pw.bad[f.key] && f.v < 0 {
			p.add(pw.at(f.key), path+"."+f.key, "must be ≥ 0")
		}
	}
	for _, sw := range [][3]string{{"switch_off_s", "switch_off_j", "switch_off_w"}, {"switch_on_s", "switch_on_j", "switch_on_w"}} {
		s, j, w := pw.SwitchOffS, pw.SwitchOffJ, pw.SwitchOffW
		if sw[0] == "switch_on_s" {
			s, j, w = pw.SwitchOnS, pw.SwitchOnJ, pw.SwitchOnW
		}
		for k, v := range map[string]float64{sw[1]: j, sw[2]: w} {
			if !pw.bad[sw[0]] && !pw.bad[k] && v > 0 && sim.SecondsToTime(s) <= 0 {
				p.add(pw.at(k), path+"."+k, "needs %s > 0 (a switch that takes no time cannot use energy)", sw[0])
			}
		}
		if pw.given(sw[1]) && pw.given(sw[2]) {
			p.add(pw.at(sw[2]), path+"."+sw[2], "give %s or %s, not both", sw[1], sw[2])
		}
	}
}
