package placement

import "github.com/schedsim/schedsim/sim"

// attributeColumns turns node attributes into columns of small integers,
// built on first use, so rules compare ids instead of looking up maps.
type attributeColumns struct {
	c    *sim.Cluster
	cols map[string]*attributeColumn
}

type attributeColumn struct {
	ids    []int32  // node → value id; 0 when absent
	values []string // id → value; values[0] = ""
	index  map[string]int32
}

func (a *attributeColumns) init(c *sim.Cluster) {
	a.c = c
	a.cols = map[string]*attributeColumn{}
}

// HostName is the pseudo-attribute holding each node's name (Fenzo's
// default attribute for unique-host constraints).
const HostName = "hostname"

func (a *attributeColumns) column(key string) ([]int32, []string) {
	if col, ok := a.cols[key]; ok {
		return col.ids, col.values
	}
	col := &attributeColumn{ids: make([]int32, len(a.c.Nodes)), values: []string{""}, index: map[string]int32{"": 0}}
	for n, spec := range a.c.Nodes {
		v, ok := spec.Attributes[key]
		if key == HostName && !ok {
			v, ok = spec.Name, true
		}
		if !ok {
			continue
		}
		id, seen := col.index[v]
		if !seen {
			id = int32(len(col.values))
			col.index[v] = id
			col.values = append(col.values, v)
		}
		col.ids[n] = id
	}
	a.cols[key] = col
	return col.ids, col.values
}

// valueID returns the id of value v in column key, or −1 when no node has it.
func (a *attributeColumns) valueID(key, v string) int32 {
	a.column(key)
	if id, ok := a.cols[key].index[v]; ok {
		return id
	}
	return -1
}
