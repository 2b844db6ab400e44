package native

import (
	"fmt"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// A nested column (a list of strings, a map, a list of structs) is read
// here from its leaves' definition and repetition levels, a row group at
// a time, with the library's column readers. pqarrow would build Arrow
// arrays for it, but it reads a struct's members on goroutines of its own,
// where a corrupt page's panic cannot be recovered. Every nested column
// of the schema is a top-level group, a repeated group, optionally a
// struct, then the leaf:
//
//	selector (LIST/MAP, optional) → key_value (repeated) → key, value
//	constraints (LIST, optional) → list (repeated) → element (struct) → kind, …
//
// so a leaf's definition level says how far down a row's value exists.

// nestedField is one nested column and its leaves.
type nestedField struct {
	name   string
	f      field
	leaves []*nestedLeaf
	// rowStart[r] is the first level of row r of the row group; one more
	// entry closes the last row.
	rowStart []int32
}

// nestedLeaf is one leaf of a nested column, with the row group's levels.
type nestedLeaf struct {
	member string // its name in the struct or map; "" in a list of strings
	leaf   int
	// Definition levels at which the list exists (possibly empty), an
	// element exists, the element's struct is not null, the value is
	// there.
	listDef, elemDef, structDef, maxDef int16
	defs, reps                          []int16
	idx                                 []int32 // level → index of its value
	ints                                []int64
	bytes                               []parquet.ByteArray
	bools                               []bool
}

// newNestedField maps the leaves under the top-level column name and
// works out their levels; it refuses a nesting the schema does not use.
func newNestedField(name string, f field, s *schema.Schema) (*nestedField, error) {
	n := &nestedField{name: name, f: f}
	for l := range s.NumColumns() {
		col := s.Column(l)
		path := col.ColumnPath()
		if path[0] != name {
			continue
		}
		// The nodes from the top-level column down to the leaf.
		var nodes []schema.Node
		for nd := col.SchemaNode(); nd != nil && nd.Parent() != nil; nd = nd.Parent() {
			nodes = append([]schema.Node{nd}, nodes...)
		}
		shape := len(nodes) // top, repeated, [struct], leaf
		if (shape != 3 && shape != 4) || nodes[1].RepetitionType() != parquet.Repetitions.Repeated || col.MaxRepetitionLevel() != 1 {
			return nil, fmt.Errorf("unsupported nesting %s (want a three-level list or map)", path)
		}
		lf := &nestedLeaf{leaf: l, maxDef: col.MaxDefinitionLevel()}
		var def int16
		for i, nd := range nodes {
			if nd.RepetitionType() != parquet.Repetitions.Required {
				def++
			}
			switch i {
			case 0:
				lf.listDef = def
			case 1:
				lf.elemDef = def
			}
		}
		lf.structDef = lf.elemDef
		if shape == 4 {
			if nodes[2].RepetitionType() != parquet.Repetitions.Required {
				lf.structDef++
			}
			lf.member = path[len(path)-1]
		} else if f == fSelector || f == fLabels {
			lf.member = path[len(path)-1] // key or value
		}
		n.leaves = append(n.leaves, lf)
	}
	if len(n.leaves) == 0 {
		return nil, fmt.Errorf("no leaf column")
	}
	return n, nil
}

// member returns the leaf of a struct member or map part; nil when the
// file leaves it out.
func (n *nestedField) member(name string) *nestedLeaf {
	for _, l := range n.leaves {
		if l.member == name {
			return l
		}
	}
	return nil
}

// maxNestedLevels caps the levels of one nested column in one row group,
// which load holds at once (some 10 bytes a level: 160 MiB at the cap).
// Run-length encoding lets a page of a few bytes claim billions of
// levels, so neither the file's size nor its pages' sizes bound them.
// Our writer's row groups of 65,536 jobs stay far below: 256 levels a
// job (dependencies, constraints) on average.
var maxNestedLevels int64 = 1 << 24

// load reads every level of the column in row group rg, which has rows
// rows, and finds where each row starts.
func (n *nestedField) load(rg *file.RowGroupReader, rows int) error {
	for _, l := range n.leaves {
		cc, err := rg.MetaData().ColumnChunk(l.leaf)
		if err != nil {
			return err
		}
		if v := cc.NumValues(); v > maxNestedLevels {
			return fmt.Errorf("%d levels in one row group, more than the reader's limit of %d for a nested column (write smaller row groups)", v, maxNestedLevels)
		}
	}
	for _, l := range n.leaves {
		if err := l.load(rg); err != nil {
			return err
		}
	}
	first := n.leaves[0]
	for _, l := range n.leaves[1:] {
		if len(l.defs) != len(first.defs) {
			return fmt.Errorf("leaves with %d and %d levels", len(first.defs), len(l.defs))
		}
	}
	n.rowStart = n.rowStart[:0]
	for j, r := range first.reps {
		if r == 0 {
			n.rowStart = append(n.rowStart, int32(j))
		}
	}
	if len(n.rowStart) != rows || (rows > 0 && n.rowStart[0] != 0) {
		return fmt.Errorf("%d rows where the row group has %d", len(n.rowStart), rows)
	}
	n.rowStart = append(n.rowStart, int32(len(first.defs)))
	return nil
}

// load reads the leaf's levels and values in row group rg.
func (l *nestedLeaf) load(rg *file.RowGroupReader) error {
	rd, err := rg.Column(l.leaf)
	if err != nil {
		return err
	}
	l.defs, l.reps, l.idx = l.defs[:0], l.reps[:0], l.idx[:0]
	l.ints, l.bytes, l.bools = l.ints[:0], l.bytes[:0], l.bools[:0]
	const step = 4096
	defs, reps := make([]int16, step), make([]int16, step)
	var ints []int64
	var bytes []parquet.ByteArray
	var bools []bool
	for rd.HasNext() {
		var total int64
		var n int
		switch r := rd.(type) {
		case *file.Int64ColumnChunkReader:
			ints = grow(ints, step)
			total, n, err = r.ReadBatch(step, ints, defs, reps)
			l.ints = append(l.ints, ints[:n]...)
		case *file.ByteArrayColumnChunkReader:
			bytes = grow(bytes, step)
			total, n, err = r.ReadBatch(step, bytes, defs, reps)
			l.bytes = append(l.bytes, bytes[:n]...)
		case *file.BooleanColumnChunkReader:
			bools = grow(bools, step)
			total, n, err = r.ReadBatch(step, bools, defs, reps)
			l.bools = append(l.bools, bools[:n]...)
		default:
			return fmt.Errorf("unsupported physical type %s", rd.Type())
		}
		if err != nil {
			return err
		}
		if total == 0 {
			break
		}
		l.defs = append(l.defs, defs[:total]...)
		l.reps = append(l.reps, reps[:total]...)
	}
	if err := rd.Err(); err != nil {
		return err
	}
	values := int32(0)
	for _, d := range l.defs {
		l.idx = append(l.idx, values)
		if d == l.maxDef {
			values++
		}
	}
	if have := len(l.ints) + len(l.bytes) + len(l.bools); int(values) != have {
		return fmt.Errorf("%d values where the levels say %d", have, values)
	}
	return nil
}

// items returns the levels [a, b) of row r's elements; a == b when its
// list or map is null or empty.
func (n *nestedField) items(r int) (int, int) {
	a, b := int(n.rowStart[r]), int(n.rowStart[r+1])
	if b-a == 1 && n.leaves[0].defs[a] < n.leaves[0].elemDef {
		return a, a
	}
	return a, b
}

// elemNull reports whether the element at level j is null (a null
// struct, or a null string in a list of strings).
func (l *nestedLeaf) elemNull(j int) bool {
	if l.member == "" {
		return l.defs[j] < l.maxDef
	}
	return l.defs[j] < l.structDef
}

// text returns the value at level j, if any; a nil leaf has none.
func (l *nestedLeaf) text(j int) ([]byte, bool) {
	if l == nil || l.defs[j] != l.maxDef {
		return nil, false
	}
	return l.bytes[l.idx[j]], true
}

func (l *nestedLeaf) int(j int) (int64, bool) {
	if l == nil || l.defs[j] != l.maxDef {
		return 0, false
	}
	return l.ints[l.idx[j]], true
}

func (l *nestedLeaf) flag(j int) (bool, bool) {
	if l == nil || l.defs[j] != l.maxDef {
		return false, false
	}
	return l.bools[l.idx[j]], true
}
