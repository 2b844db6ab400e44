package metrics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/golang/snappy"
)

// columnKind is an Arrow column type the direct Parquet writer handles.
type columnKind uint8

const (
	kindFloat64   columnKind = iota // DOUBLE
	kindInt64                       // INT64, logical INTEGER(64, signed)
	kindTimestamp                   // INT64, logical TIMESTAMP(UTC, µs)
	kindString                      // BYTE_ARRAY, logical STRING
	kindBool                        // BOOLEAN
)

// Parquet constants, as the format's Thrift definition numbers them.
const (
	pqBoolean   = 0 // physical types
	pqInt64     = 2
	pqDouble    = 5
	pqByteArray = 6

	pqRequired = 0 // repetition
	pqOptional = 1

	pqUTF8            = 0 // converted types
	pqTimestampMicros = 10
	pqInt64Converted  = 18

	pqPlain     = 0 // encodings
	pqRLE       = 3
	pqSnappy    = 1 // compression codec
	pqDataPage  = 0 // page type
	pqCreatedBy = "parquet-go version 17.0.0"

	// pqPageSize and pqBatchRows are the library's defaults: it checks
	// after every 1,024 rows whether a page's values reached 1 MiB.
	pqPageSize  = 1 << 20
	pqBatchRows = 1024
)

var pqMagic = []byte("PAR1")

// pageChecksums puts each page's CRC-32 (of its compressed bytes, as the
// format defines it) in its header, which the readers (traces/pqcheck)
// verify: a byte changed in a run directory is an error, not other data.
// The library's writer has no such option; the tests that require the
// library's bytes turn it off.
var pageChecksums = true

// directColumn is one leaf of the file schema.
type directColumn struct {
	name     string
	kind     columnKind
	nullable bool
}

// directParquetWriter writes the metrics tables' Parquet files itself,
// byte for byte what the Arrow library's pqarrow writer makes with
// newParquetWriter's properties (PLAIN data pages V1 of at most 1 MiB of
// values, Snappy, statistics, no dictionary, a row group per 64k rows),
// for the column types the tables use. The library's path spent most of
// a replay's encoding time converting and copying values, and allocating
// and clearing fresh page buffers for every column chunk; this one reads
// the Arrow buffers directly and reuses one set of buffers for all pages
// of a file. pqarrow stays the fallback for any other schema, and the
// oracle: the tests require identical bytes.
type directParquetWriter struct {
	w       io.Writer
	pos     int64 // bytes written so far
	schema  *arrow.Schema
	cols    []directColumn
	kv      [][2]string // footer key-value metadata
	groups  []rowGroupFooter
	numRows int64
	err     error // first write error; later calls return it
	closed  bool

	// Reused from page to page.
	values     []byte
	levels     levelEncoder
	page       []byte
	compressed []byte
	header     thriftWriter
	chunk      thriftWriter
	boolBits   [1024]byte // the library's 8,192-value bit buffer (see putBools)
	boolPos    int        // bits used in boolBits
	boolCached byte       // the buffer writer's cached byte
	boolBatch  []bool
	pageStats  columnStats
	chunkStats columnStats
}

// rowGroupFooter is what the footer says of a row group: its column
// chunks' metadata as already written after each chunk, and the sums.
type rowGroupFooter struct {
	chunks     []byte
	numRows    int64
	fileOffset int64
	size       int64
}

// directColumns maps schema to the writer's columns, or reports false
// for a schema it does not handle (any other type, a time stamp not UTC
// microseconds, field metadata, which could carry Parquet field ids).
func directColumns(schema *arrow.Schema) ([]directColumn, bool) {
	if schema.NumFields() == 0 {
		return nil, false
	}
	cols := make([]directColumn, 0, schema.NumFields())
	for _, f := range schema.Fields() {
		if f.HasMetadata() || len(f.Name) > maxStatBytes {
			return nil, false
		}
		c := directColumn{name: f.Name, nullable: f.Nullable}
		switch f.Type.ID() {
		case arrow.FLOAT64:
			c.kind = kindFloat64
		case arrow.INT64:
			c.kind = kindInt64
		case arrow.STRING:
			c.kind = kindString
		case arrow.BOOL:
			c.kind = kindBool
		case arrow.TIMESTAMP:
			ts := f.Type.(*arrow.TimestampType)
			if ts.Unit != arrow.Microsecond || ts.TimeZone != "UTC" {
				return nil, false
			}
			c.kind = kindTimestamp
		default:
			return nil, false
		}
		cols = append(cols, c)
	}
	return cols, true
}

func newDirectParquetWriter(schema *arrow.Schema, cols []directColumn, w io.Writer) (*directParquetWriter, error) {
	p := &directParquetWriter{w: w, schema: schema, cols: cols}
	md := schema.Metadata()
	for i, k := range md.Keys() {
		p.kv = append(p.kv, [2]string{k, md.Values()[i]})
	}
	p.levels.reset()
	p.emit(pqMagic)
	return p, p.err
}

func (p *directParquetWriter) emit(b []byte) {
	if p.err != nil {
		return
	}
	n, err := p.w.Write(b)
	p.pos += int64(n)
	p.err = err
}

func (p *directParquetWriter) write(rec arrow.Record) error {
	if p.err != nil {
		return p.err
	}
	if p.closed {
		return errParquetClosed
	}
	if !rec.Schema().Equal(p.schema) {
		return fmt.Errorf("record schema does not match writer's. \nrecord: %s\nwriter: %s", rec.Schema(), p.schema)
	}
	// Like pqarrow: a row group per rowsPerRecord rows, and one (maybe
	// empty) row group for a record of no more.
	n := int(rec.NumRows())
	for off := 0; ; off += rowsPerRecord {
		p.writeRowGroup(rec, off, min(rowsPerRecord, n-off))
		if off+rowsPerRecord >= n || p.err != nil {
			break
		}
	}
	return p.err
}

func (p *directParquetWriter) writeRowGroup(rec arrow.Record, off, n int) {
	g := rowGroupFooter{numRows: int64(n)}
	for i := range p.cols {
		offset, size := p.writeChunk(&p.cols[i], rec.Column(i), off, n)
		g.chunks = append(g.chunks, p.chunk.buf...)
		p.emit(p.chunk.buf[:leakedChunkMeta(len(p.chunk.buf))])
		if i == 0 {
			g.fileOffset = offset
		}
		g.size += size
	}
	p.groups = append(p.groups, g)
	p.numRows += int64(n)
}

// leakedChunkMeta is how much of a ColumnChunk struct of n bytes the
// library leaves in the file after the chunk's pages. It serializes the
// struct there through a fresh 4,096-byte bufio.Writer that it never
// flushes, so only what overflowed the buffer reaches the file: nothing
// for a usual chunk, whole buffers when long string statistics make the
// struct bigger. (Each single write is at most 4,096 bytes, string
// statistics being capped there and column names too (directColumns),
// so bufio never bypasses its buffer.)
func leakedChunkMeta(n int) int {
	if n == 0 {
		return 0
	}
	return (n - 1) / 4096 * 4096
}

// chunkState is the running totals of one column chunk.
type chunkState struct {
	dataOffset   int64 // of the first page; 0 when there is none
	pages        int32
	values       int64 // levels written, nulls included
	uncompressed int64 // page headers included
	compressed   int64
	pageRows     int
}

// writeChunk writes rows [off, off+n) of arr as one column chunk's pages,
// and leaves its ColumnChunk metadata in p.chunk (the library writes it
// after the pages too). It returns the chunk's first page offset and its
// size in the file.
func (p *directParquetWriter) writeChunk(c *directColumn, arr arrow.Array, off, n int) (int64, int64) {
	var st chunkState
	p.chunkStats.reset()
	p.pageStats.reset()
	p.values = p.values[:0]
	p.levels.reset()
	p.boolBits = [1024]byte{}
	p.restartBoolBits()
	nullable := c.nullable && arr.NullN() > 0
	for b := 0; b < n; b += pqBatchRows {
		m := min(pqBatchRows, n-b)
		if c.nullable && !nullable {
			p.levels.putOnes(m)
		}
		p.putBatch(c, arr, off+b, m, nullable)
		st.pageRows += m
		if p.valueBytes() >= pqPageSize {
			p.flushPage(c, &st)
		}
	}
	if st.pageRows > 0 {
		p.flushPage(c, &st)
	}
	p.writeChunkMeta(c, &st, n)
	return st.dataOffset, st.compressed
}

// valueBytes is the size of the page's values so far, as the library
// estimates it before deciding to end a page.
func (p *directParquetWriter) valueBytes() int {
	return len(p.values) + (p.boolPos+7)/8
}

// putBatch adds rows [from, from+m) of arr to the page under way: values,
// definition levels when withNulls, and statistics. A column declared
// non-nullable is written without looking at validity, as the library
// does.
func (p *directParquetWriter) putBatch(c *directColumn, arr arrow.Array, from, m int, withNulls bool) {
	s := &p.pageStats
	switch c.kind {
	case kindFloat64:
		vals := arr.(*array.Float64).Float64Values()[from : from+m]
		if !withNulls {
			p.values = append(p.values, arrow.Float64Traits.CastToBytes(vals)...)
			s.addFloats(vals)
			return
		}
		lo, hi, seen := math.MaxFloat64, -math.MaxFloat64, false
		for i, v := range vals {
			if !p.level(arr, from+i, true) {
				continue
			}
			p.values = binary.LittleEndian.AppendUint64(p.values, math.Float64bits(v))
			if v != v {
				continue
			}
			seen = true
			if !(lo < v) {
				lo = v
			}
			if hi < v {
				hi = v
			}
		}
		if seen {
			s.mergeFloats(lo, hi)
		}
	case kindInt64, kindTimestamp:
		var vals []int64
		if c.kind == kindInt64 {
			vals = arr.(*array.Int64).Int64Values()[from : from+m]
		} else {
			vals = arrow.Int64Traits.CastFromBytes(arrow.TimestampTraits.CastToBytes(arr.(*array.Timestamp).TimestampValues()))[from : from+m]
		}
		if !withNulls {
			p.values = append(p.values, arrow.Int64Traits.CastToBytes(vals)...)
			s.addInts(vals)
			return
		}
		lo, hi, seen := int64(math.MaxInt64), int64(math.MinInt64), false
		for i, v := range vals {
			if !p.level(arr, from+i, true) {
				continue
			}
			p.values = binary.LittleEndian.AppendUint64(p.values, uint64(v))
			seen = true
			lo = min(lo, v)
			hi = max(hi, v)
		}
		if seen {
			s.mergeInts(lo, hi)
		}
	case kindString:
		a := arr.(*array.String)
		offsets := a.ValueOffsets()
		// As in pqarrow: a values buffer holding no bytes makes every
		// value a nil slice, which statistics ignore.
		data := []byte{}
		if buf := a.Data().Buffers()[2]; buf != nil {
			data = buf.Bytes()
		}
		for i := from; i < from+m; i++ {
			if !p.level(a, i, withNulls) {
				continue
			}
			v := data[offsets[i]:offsets[i+1]]
			p.values = binary.LittleEndian.AppendUint32(p.values, uint32(len(v)))
			p.values = append(p.values, v...)
			s.addString(v)
		}
	case kindBool:
		a := arr.(*array.Boolean)
		p.boolBatch = p.boolBatch[:0]
		for i := from; i < from+m; i++ {
			if !p.level(a, i, withNulls) {
				continue
			}
			v := a.Value(i)
			p.boolBatch = append(p.boolBatch, v)
			s.addBool(v)
		}
		p.putBools(p.boolBatch)
	}
}

// level writes row i's definition level when the page has them, and
// reports whether the row holds a value; a null is counted in the page's
// statistics.
func (p *directParquetWriter) level(arr arrow.Array, i int, withNulls bool) bool {
	if !withNulls {
		return true
	}
	if arr.IsNull(i) {
		p.levels.put(0)
		p.pageStats.nulls++
		return false
	}
	p.levels.put(1)
	return true
}

// putBools packs one write batch's booleans the way the library's PLAIN
// encoder does, through a 1,024-byte bit buffer kept for the whole column
// chunk and emptied into the page each time it is full. That buffer is
// never cleared, and its writer starts each batch's first byte from a
// cached byte: the byte itself when the previous batch ended inside it,
// but the byte before when it ended on a byte boundary (and byte 0 of the
// previous fill after a page or a refill). Bits above a page's last value
// come from there; writing the same bytes means doing the same.
func (p *directParquetWriter) putBools(in []bool) {
	for len(in) > 0 {
		if p.boolPos == len(p.boolBits)*8 {
			p.values = append(p.values, p.boolBits[:]...)
			p.restartBoolBits()
		}
		bit := p.boolPos % 8
		first := p.boolPos / 8
		space := min(len(p.boolBits)*8-p.boolPos, len(in))
		bits := p.boolBits[first : first+(bit+space+7)/8]
		bits[0] = p.boolCached
		for i, v := range in[:space] {
			if v {
				bits[(bit+i)/8] |= 1 << ((bit + i) % 8)
			} else {
				bits[(bit+i)/8] &^= 1 << ((bit + i) % 8)
			}
		}
		p.boolPos += space
		p.boolCached = bits[len(bits)-1]
		in = in[space:]
	}
}

func (p *directParquetWriter) restartBoolBits() {
	p.boolPos = 0
	p.boolCached = p.boolBits[0]
}

// flushPage compresses the page under way and writes it with its header.
func (p *directParquetWriter) flushPage(c *directColumn, st *chunkState) {
	if p.boolPos > 0 {
		p.values = append(p.values, p.boolBits[:(p.boolPos+7)/8]...)
		p.restartBoolBits()
	}
	page := p.values
	if c.nullable {
		lv := p.levels.finish()
		p.page = binary.LittleEndian.AppendUint32(p.page[:0], uint32(len(lv)))
		p.page = append(p.page, lv...)
		p.page = append(p.page, p.values...)
		page = p.page
	}
	if need := snappy.MaxEncodedLen(len(page)); cap(p.compressed) < need {
		p.compressed = make([]byte, need)
	}
	data := snappy.Encode(p.compressed[:cap(p.compressed)], page)

	t := &p.header
	t.reset()
	t.beginStruct()
	t.i32(1, pqDataPage)
	t.i32(2, int32(len(page)))
	t.i32(3, int32(len(data)))
	if pageChecksums {
		t.i32(4, int32(crc32.ChecksumIEEE(data)))
	}
	t.structField(5)
	t.i32(1, int32(st.pageRows))
	t.i32(2, pqPlain)
	t.i32(3, pqRLE)
	t.i32(4, pqRLE)
	t.structField(5)
	p.pageStats.write(t, c.kind, st.pages == 0)
	t.endStruct()
	t.endStruct()

	if st.pages == 0 {
		st.dataOffset = p.pos
	}
	p.emit(t.buf)
	p.emit(data)
	st.pages++
	st.values += int64(st.pageRows)
	st.uncompressed += int64(len(t.buf) + len(page))
	st.compressed += int64(len(t.buf) + len(data))
	st.pageRows = 0
	p.chunkStats.merge(&p.pageStats, c.kind)
	p.pageStats.reset()
	p.values = p.values[:0]
	p.levels.reset()
}

// writeChunkMeta leaves the chunk's ColumnChunk struct in p.chunk.buf.
func (p *directParquetWriter) writeChunkMeta(c *directColumn, st *chunkState, rows int) {
	t := &p.chunk
	t.reset()
	t.beginStruct()
	t.i64(2, st.dataOffset+st.compressed)
	t.structField(3)
	t.i32(1, physicalType(c.kind))
	t.listField(2, thriftI32, 2)
	t.i32Elem(pqPlain)
	t.i32Elem(pqRLE)
	t.listField(3, thriftBinary, 1)
	t.appendBinary([]byte(c.name))
	t.i32(4, pqSnappy)
	t.i64(5, st.values)
	t.i64(6, st.uncompressed)
	t.i64(7, st.compressed)
	t.i64(9, st.dataOffset)
	if rows > 0 {
		t.structField(12)
		p.chunkStats.write(t, c.kind, true)
	}
	if st.pages > 0 {
		t.listField(13, thriftStruct, 1)
		t.beginStruct()
		t.i32(1, pqDataPage)
		t.i32(2, pqPlain)
		t.i32(3, st.pages)
		t.endStruct()
	} else {
		t.listField(13, thriftStruct, 0)
	}
	t.endStruct()
	t.endStruct()
}

func physicalType(k columnKind) int32 {
	switch k {
	case kindFloat64:
		return pqDouble
	case kindString:
		return pqByteArray
	case kindBool:
		return pqBoolean
	}
	return pqInt64
}

// close writes the footer: the FileMetaData, its length and the magic.
func (p *directParquetWriter) close() error {
	if p.closed {
		return p.err
	}
	p.closed = true
	if p.err != nil {
		return p.err
	}
	t := &p.header
	t.reset()
	t.beginStruct()
	t.i32(1, 2) // format version 2, as the library's default properties say
	t.listField(2, thriftStruct, len(p.cols)+1)
	t.beginStruct()
	t.i32(3, pqRequired)
	t.str(4, "schema")
	t.i32(5, int32(len(p.cols)))
	t.endStruct()
	for _, c := range p.cols {
		p.writeSchemaElement(c)
	}
	t.i64(3, p.numRows)
	t.listField(4, thriftStruct, len(p.groups))
	for i, g := range p.groups {
		t.beginStruct()
		t.listField(1, thriftStruct, len(p.cols))
		t.buf = append(t.buf, g.chunks...)
		t.i64(2, g.size)
		t.i64(3, g.numRows)
		t.i64(5, g.fileOffset)
		t.i64(6, g.size)
		t.i16(7, int16(i))
		t.endStruct()
	}
	t.listField(5, thriftStruct, len(p.kv))
	for _, kv := range p.kv {
		t.beginStruct()
		t.str(1, kv[0])
		t.str(2, kv[1])
		t.endStruct()
	}
	t.str(6, pqCreatedBy)
	t.listField(7, thriftStruct, len(p.cols))
	for range p.cols {
		t.beginStruct()
		t.structField(1) // TYPE_ORDER
		t.endStruct()
		t.endStruct()
	}
	t.endStruct()
	size := len(t.buf)
	t.buf = binary.LittleEndian.AppendUint32(t.buf, uint32(size))
	t.buf = append(t.buf, pqMagic...)
	p.emit(t.buf)
	p.groups = nil
	return p.err
}

func (p *directParquetWriter) writeSchemaElement(c directColumn) {
	t := &p.header
	t.beginStruct()
	t.i32(1, physicalType(c.kind))
	if c.nullable {
		t.i32(3, pqOptional)
	} else {
		t.i32(3, pqRequired)
	}
	t.str(4, c.name)
	switch c.kind {
	case kindString:
		t.i32(6, pqUTF8)
		t.structField(10)
		t.structField(1) // STRING
		t.endStruct()
		t.endStruct()
	case kindInt64:
		t.i32(6, pqInt64Converted)
		t.structField(10)
		t.structField(10) // INTEGER
		t.byteField(1, 64)
		t.boolean(2, true)
		t.endStruct()
		t.endStruct()
	case kindTimestamp:
		t.i32(6, pqTimestampMicros)
		t.structField(10)
		t.structField(8) // TIMESTAMP
		t.boolean(1, true)
		t.structField(2)
		t.structField(2) // MICROS
		t.endStruct()
		t.endStruct()
		t.endStruct()
		t.endStruct()
	}
	t.endStruct()
}

var errParquetClosed = errors.New("metrics: parquet writer is closed")
