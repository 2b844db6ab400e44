package native

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
)

// flatCol reads one flat (not nested) column with the Parquet library's
// own column readers, a chunk of rows at a time, without building Arrow
// arrays: measured, that decodes the job columns about twice as fast
// (parquet_bench_test.go). Nested columns go through pqarrow.
type flatCol struct {
	pqColumn
	leaf   int   // the Parquet leaf column
	maxDef int16 // 0 for a required column
	rd     file.ColumnChunkReader
	// The chunk's values, by row; valid is nil when none is null.
	ints  []int64
	bytes []parquet.ByteArray
	bools []bool
	valid []bool
	// last is the string of the last value text returned, which the
	// next rows of a repetitive column (user, queue) reuse without a
	// map lookup.
	last string
	// scratch
	def  []int16
	i32  []int32
	flba []parquet.FixedLenByteArray
}

// start points the column at its chunk in row group rg.
func (c *flatCol) start(rg *file.RowGroupReader) error {
	rd, err := rg.Column(c.leaf)
	c.rd = rd
	return err
}

// read decodes the next k rows of the column.
func (c *flatCol) read(k int) error {
	if c.maxDef > 0 && len(c.def) < k {
		c.def = make([]int16, k)
	}
	def := c.def
	if c.maxDef == 0 {
		def = nil
	}
	var total int64
	var n int
	var err error
	switch rd := c.rd.(type) {
	case *file.Int64ColumnChunkReader:
		c.ints = grow(c.ints, k)
		total, n, err = rd.ReadBatch(int64(k), c.ints, def, nil)
	case *file.Int32ColumnChunkReader: // a narrow decimal
		c.i32 = grow(c.i32, k)
		c.ints = grow(c.ints, k)
		total, n, err = rd.ReadBatch(int64(k), c.i32, def, nil)
		for i, v := range c.i32[:n] {
			c.ints[i] = int64(v)
		}
	case *file.FixedLenByteArrayColumnChunkReader: // a decimal as pyarrow writes it
		c.flba = grow(c.flba, k)
		c.ints = grow(c.ints, k)
		total, n, err = rd.ReadBatch(int64(k), c.flba, def, nil)
		for i, v := range c.flba[:n] {
			c.ints[i] = bigEndianInt(v)
		}
	case *file.ByteArrayColumnChunkReader:
		c.bytes = grow(c.bytes, k)
		total, n, err = rd.ReadBatch(int64(k), c.bytes, def, nil)
	case *file.BooleanColumnChunkReader:
		c.bools = grow(c.bools, k)
		total, n, err = rd.ReadBatch(int64(k), c.bools, def, nil)
	default:
		return fmt.Errorf("unsupported physical type %s", c.rd.Type())
	}
	if err == nil {
		err = c.rd.Err()
	}
	if err != nil {
		return err
	}
	if int(total) != k {
		return fmt.Errorf("the column chunk ends after %d of the row group's rows", total)
	}
	c.spread(k, n)
	return nil
}

// spread moves the n values of a chunk of k rows, which the reader
// packs, to their rows, and marks the null rows.
func (c *flatCol) spread(k, n int) {
	if n == k {
		c.valid = nil
		return
	}
	c.valid = grow(c.valid, k)
	j := n - 1
	for i := k - 1; i >= 0; i-- {
		ok := c.def[i] == c.maxDef
		c.valid[i] = ok
		if !ok {
			continue
		}
		switch {
		case c.ints != nil:
			c.ints[i] = c.ints[j]
		case c.bytes != nil:
			c.bytes[i] = c.bytes[j]
		default:
			c.bools[i] = c.bools[j]
		}
		j--
	}
}

func grow[T any](s []T, k int) []T {
	if cap(s) < k {
		return make([]T, k)
	}
	return s[:k]
}

// bigEndianInt reads a two's-complement big-endian integer; one that
// does not fit an int64 becomes MaxInt64, which no check accepts.
func bigEndianInt(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	var v int64
	if b[0]&0x80 != 0 {
		v = -1
	}
	for i, x := range b {
		if len(b)-i > 8 { // a byte beyond the low 8 must only extend the sign
			if int64(int8(x)) != v {
				return math.MaxInt64
			}
			continue
		}
		v = v<<8 | int64(x)
	}
	if len(b) >= 8 && (v < 0) != (b[0]&0x80 != 0) {
		return math.MaxInt64
	}
	return v
}

// present reports whether row i has a value; a nil column (not in the
// file) has none.
func (c *flatCol) present(i int) bool { return c != nil && (c.valid == nil || c.valid[i]) }

func (c *flatCol) int(i int) (int64, bool) {
	if !c.present(i) {
		return 0, false
	}
	return c.ints[i], true
}

// str returns row i's value as a string, interned, or "" when null.
func (c *flatCol) str(i int, in *interner) string {
	b, ok := c.text(i)
	if !ok || len(b) == 0 {
		return ""
	}
	if string(b) == c.last {
		return c.last
	}
	c.last = in.str(b)
	return c.last
}

func (c *flatCol) text(i int) ([]byte, bool) {
	if !c.present(i) {
		return nil, false
	}
	return c.bytes[i], true
}
