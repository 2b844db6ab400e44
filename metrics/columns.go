package metrics

import (
	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/bitutil"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// Columns built in place. The big tables (jobs, timeseries) know how many
// rows a record has before they build it, so their encoders fill plain Go
// slices of that length and wrap them as Arrow arrays. Appending value by
// value through Arrow builders cost about a third of the encoding: each
// append checks capacity and sets a validity bit, and the buffers grow by
// doubling, copying and clearing as they go. The arrays are the same
// (values, nulls, zero under a null), so the files are byte for byte the
// same. A record's slices are fresh: the writers may keep a reference to a
// column until the next record (Parquet statistics), so none is reused.

// floatColumn is a float64 column of a known length.
type floatColumn struct {
	vals  []float64
	valid []byte // validity bitmap, made at the first null
	nulls int
}

func newFloatColumn(n int) *floatColumn { return &floatColumn{vals: make([]float64, n)} }

// setNull marks row i null; its value stays 0.
func (c *floatColumn) setNull(i int) {
	if c.valid == nil {
		c.valid = allValid(len(c.vals))
	}
	bitutil.ClearBit(c.valid, i)
	c.nulls++
}

// grow lengthens the column to n rows, of which the first filled are
// set; the new rows are zero and valid.
func (c *floatColumn) grow(filled, n int) {
	c.vals = growSlice(c.vals, n)
	c.valid = growValidity(c.valid, filled, n)
}

// growSlice returns s lengthened to n with zeros.
func growSlice[T any](s []T, n int) []T {
	return append(s, make([]T, n-len(s))...)
}

// growValidity returns the bitmap valid of a column lengthened to n rows,
// as allValid(n) would start it, with the same rows among the first
// filled null.
func growValidity(valid []byte, filled, n int) []byte {
	if valid == nil {
		return nil
	}
	v := allValid(n)
	full := filled / 8
	copy(v[:full], valid[:full])
	if r := filled % 8; r > 0 {
		low := byte(1)<<r - 1
		v[full] = valid[full]&low | v[full]&^low
	}
	return v
}

// truncate cuts the column to its first n rows (a record cut before the
// rows its columns were sized for).
func (c *floatColumn) truncate(n int) {
	c.valid = truncateValidity(c.valid, len(c.vals), n)
	c.vals = c.vals[:n]
}

// truncateValidity returns the bitmap of the first n of rows rows as
// allValid(n) would start it, with the same rows null.
func truncateValidity(valid []byte, rows, n int) []byte {
	if valid == nil || n == rows {
		return valid
	}
	v := allValid(n) // no longer than valid, and zero past n
	for i := range v {
		v[i] &= valid[i]
	}
	return v
}

func (c *floatColumn) array() arrow.Array {
	data := array.NewData(arrow.PrimitiveTypes.Float64, len(c.vals),
		[]*memory.Buffer{c.validity(), memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(c.vals))}, nil, c.nulls, 0)
	defer data.Release()
	return array.NewFloat64Data(data)
}

// validity is the bitmap buffer, or nil when no row is null.
func (c *floatColumn) validity() *memory.Buffer {
	if c.nulls == 0 {
		return nil
	}
	return memory.NewBufferBytes(c.valid)
}

// allValid is a validity bitmap of n rows, all set, as long as a
// builder's would be where the Arrow IPC writer copies it as is: a
// builder's capacity starts at 32 rows and doubles, and the writer cuts a
// bitmap to a multiple of 64 bytes. Bits past n are zero.
func allValid(n int) []byte {
	capacity := 32
	for capacity < n {
		capacity *= 2
	}
	size := min(capacity/8, (int(bitutil.BytesForBits(int64(n)))+63)&^63)
	b := make([]byte, size)
	bitutil.SetBitsTo(b, 0, int64(n), true)
	return b
}

// intColumn is an int64 column of a known length, nulls allowed; typ is
// Int64 or a Timestamp (microseconds, the engine's unit), whose values are
// int64s too.
type intColumn struct {
	typ   arrow.DataType
	vals  []int64
	valid []byte // validity bitmap, made at the first null
	nulls int
}

func newIntColumn(typ arrow.DataType, n int) *intColumn {
	return &intColumn{typ: typ, vals: make([]int64, n)}
}

// setNull marks row i null; its value stays 0.
func (c *intColumn) setNull(i int) {
	if c.valid == nil {
		c.valid = allValid(len(c.vals))
	}
	bitutil.ClearBit(c.valid, i)
	c.nulls++
}

// grow lengthens the column to n rows, as floatColumn.grow.
func (c *intColumn) grow(filled, n int) {
	c.vals = growSlice(c.vals, n)
	c.valid = growValidity(c.valid, filled, n)
}

// truncate cuts the column to its first n rows.
func (c *intColumn) truncate(n int) {
	c.valid = truncateValidity(c.valid, len(c.vals), n)
	c.vals = c.vals[:n]
}

func (c *intColumn) array() arrow.Array {
	var validity *memory.Buffer
	if c.nulls > 0 {
		validity = memory.NewBufferBytes(c.valid)
	}
	data := array.NewData(c.typ, len(c.vals),
		[]*memory.Buffer{validity, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(c.vals))}, nil, c.nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// intArray wraps vals as an int64 column without nulls.
func intArray(vals []int64) arrow.Array {
	data := array.NewData(arrow.PrimitiveTypes.Int64, len(vals),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(vals))}, nil, 0, 0)
	defer data.Release()
	return array.NewInt64Data(data)
}

// stringColumn is a string column without nulls, filled row by row.
type stringColumn struct {
	offsets []int32
	data    []byte
}

// newStringColumn holds n rows of size bytes in all (a guess is fine: the
// data grows past it).
func newStringColumn(n, size int) *stringColumn {
	return &stringColumn{offsets: make([]int32, 1, n+1), data: make([]byte, 0, size)}
}

func (c *stringColumn) add(s []byte) {
	c.data = append(c.data, s...)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

func (c *stringColumn) addString(s string) {
	c.data = append(c.data, s...)
	c.offsets = append(c.offsets, int32(len(c.data)))
}

func (c *stringColumn) array() arrow.Array {
	// With every string empty, a builder's values buffer holds nil bytes;
	// the Parquet writer then records no min/max. Do the same.
	values := memory.NewBufferBytes(nil)
	if len(c.data) > 0 {
		values = memory.NewBufferBytes(c.data)
	}
	data := array.NewData(arrow.BinaryTypes.String, len(c.offsets)-1, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets)), values}, nil, 0, 0)
	defer data.Release()
	return array.NewStringData(data)
}

// newRecord makes a record of schema from its columns, in schema order,
// and releases the caller's references to them.
func newRecord(schema *arrow.Schema, cols []arrow.Array, rows int) arrow.Record {
	rec := array.NewRecord(schema, cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return rec
}
