package placement

import "github.com/schedsim/schedsim/sim"

// attributeColumns turns node attributes into columns of small integers,
// built on first use, so rules compare ids instead of looking up maps.
type attributeColumns struct {
	c    *sim.Cluster
	cols map[string]*attributeColumn
	// seen lists the columns built, for a linear search: rules look up a
	// few keys once per block of nodes, and comparing a short key to
	// each is cheaper than hashing it.
	seen []*attributeColumn
}

type attributeColumn struct {
	key    string
	ids    []int32  // node → value id; 0 when absent
	values []string // id → value; values[0] = ""
	index  map[string]int32
	// lastValue and lastID memoize valueID: a filter asks the same value
	// block after block.
	lastValue string
	lastID    int32
}

func (a *attributeColumns) init(c *sim.Cluster) {
	a.c = c
	a.cols = map[string]*attributeColumn{}
}

// HostName is the pseudo-attribute holding each node's name (Fenzo's
// default attribute for unique-host constraints).
const HostName = "hostname"

func (a *attributeColumns) column(key string) ([]int32, []string) {
	col := a.find(key)
	return col.ids, col.values
}

// find returns the column of key, built on first use.
func (a *attributeColumns) find(key string) *attributeColumn {
	if len(a.seen) <= 8 {
		for _, col := range a.seen {
			if col.key == key {
				return col
			}
		}
	}
	if col, ok := a.cols[key]; ok {
		return col
	}
	col := &attributeColumn{key: key, ids: make([]int32, len(a.c.Nodes)), values: []string{""}, index: map[string]int32{"": 0}}
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
	a.seen = append(a.seen, col)
	return col
}

// valueID returns the id of value v in column key, or −1 when no node has it.
func (a *attributeColumns) valueID(key, v string) int32 {
	col := a.find(key)
	if col.lastValue == v && col.lastID != 0 {
		return col.lastID
	}
	id, ok := col.index[v]
	if !ok {
		return -1
	}
	col.lastValue, col.lastID = v, id
	return id
}
