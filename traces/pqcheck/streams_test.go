package pqcheck

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

// rleCount on streams written by hand: a repeated run is its count, then
// the value in whole bytes; a bit-packed run is its number of groups of
// eight, then the values from the least significant bit.
func TestRLECount(t *testing.T) {
	for _, c := range []struct {
		name        string
		data        []byte
		width       int
		max         uint64
		n, atMax    int64
		description string
	}{
		{"repeated", []byte{10 << 1, 1}, 1, 1, 10, 10, "ten 1s"},
		{"repeated other", []byte{10 << 1, 0}, 1, 1, 10, 0, "ten 0s"},
		{"packed", []byte{1<<1 | 1, 0b1011_0001}, 1, 1, 8, 4, "eight values, four 1s"},
		{"two runs", []byte{3 << 1, 1, 2<<1 | 1, 0xff, 0x00}, 1, 1, 19, 11, "three 1s, then 16 values, eight 1s"},
		{"width 2", []byte{1<<1 | 1, 0b11_10_01_00, 0b11_11_00_00}, 2, 3, 8, 3, "0 1 2 3 0 0 3 3"},
		{"cut repeated", []byte{5 << 1}, 1, 1, 0, 0, "a run without its value"},
		{"cut packed", []byte{2<<1 | 1, 0xff}, 1, 1, 0, 0, "two groups, one byte"},
		{"huge claim", []byte{0xff, 0xff, 0xff, 0xff, 0x0f, 1}, 1, 1, 0, 0, "a varint of 2^35 groups"},
		{"width 0", []byte{7 << 1}, 0, 0, 7, 0, "seven values of no bits"},
	} {
		n, atMax := rleCount(c.data, c.width, c.max)
		if n != c.n || (c.max != 0 && atMax != c.atMax) {
			t.Errorf("%s (%s): %d entries, %d at max; want %d, %d", c.name, c.description, n, atMax, c.n, c.atMax)
		}
	}
}

// uncompressedOptional writes one optional int64 column, without
// compression, in V1 data pages: its data page body starts with the
// definition levels' length.
func uncompressedOptional(t *testing.T) ([]byte, *file.Reader) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range 100 {
		if i%3 == 0 {
			b.AppendNull()
		} else {
			b.Append(int64(i))
		}
	}
	col := b.NewArray()
	rec := array.NewRecord(schema, []arrow.Array{col}, 100)
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(parquet.DataPageV1))
	fw, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), pf
}

// A data page whose definition levels hold fewer entries than its header
// counts made the library's column reader loop for ever (fuzzing found
// one). Check refuses it, naming the page.
func TestShortDefinitionLevels(t *testing.T) {
	data, pf := uncompressedOptional(t)
	if err := Check(bytes.NewReader(data), int64(len(data)), pf.MetaData()); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	end := col.DataPageOffset() + col.TotalCompressedSize()
	// The page body ends the chunk; its header's compressed size says
	// where it starts.
	h, err := readPageHeader(&thriftReader{r: bufioOf(data[col.DataPageOffset():end]), limit: end - col.DataPageOffset()})
	if err != nil {
		t.Fatal(err)
	}
	body := end - int64(h.compressed)
	levels := binary.LittleEndian.Uint32(data[body:])
	if levels == 0 || int64(levels) > int64(h.compressed) {
		t.Fatalf("levels' length %d", levels)
	}
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[body:], 1) // one byte of levels: a run header without its value
	err = Check(bytes.NewReader(bad), int64(len(bad)), pf.MetaData())
	want := "row group 0, column x, page 0: definition levels hold 0 entries of the page's 100"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func bufioOf(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
