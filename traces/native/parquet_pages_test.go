package native

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedsim/schedsim/traces"
)

// firstPage finds the id column's page (the chunk's only one): where its
// header starts and where its Snappy data starts. The header opens with
// its type, uncompressed and compressed sizes, each an i32 field of the
// Thrift compact protocol (0x15, then a zigzag varint).
func firstPage(t *testing.T, data []byte) (header, body int) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	start := int(col.DataPageOffset())
	p := start
	var sizes [3]uint64
	for i := range sizes {
		if data[p] != 0x15 {
			t.Fatalf("page header field %d: byte %#x", i+1, data[p])
		}
		v, n := binary.Uvarint(data[p+1:])
		sizes[i], p = v>>1, p+1+n
	}
	return start, start + int(col.TotalCompressedSize()) - int(sizes[2])
}

// Hostile page headers found by fuzzing: the Arrow library trusts a page
// header's sizes and type, and its Snappy codec the length a block
// states. Each is refused before anything of that size is allocated, as
// a corrupt file (exit 2), in strict and lenient mode.
func TestHostilePageHeaders(t *testing.T) {
	data := parquetBytes(t, benchJobs(50), nil)
	header, body := firstPage(t, data)
	for _, c := range []struct {
		name   string
		mutate func(b []byte)
		want   string
	}{
		{"Snappy block of 4 GiB", func(b []byte) { copy(b[body:], []byte{0xff, 0xff, 0xff, 0xff, 0x0f}) },
			"row group 0, column id, page 0: a Snappy block of 4294967295 bytes in a page of"},
		{"index page", func(b []byte) { b[header+1] = 2 }, // the library skips it without its body
			"row group 0, column id, page 0: page type 1 is not supported"},
		{"unknown page type", func(b []byte) { b[header+1] = 0x7e },
			"row group 0, column id, page 0: page type 63 is not supported"},
	} {
		bad := bytes.Clone(data)
		c.mutate(bad)
		for _, opt := range []traces.Options{{Strict: true}, {}} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := readParquet(t, bad, opt)
			runtime.ReadMemStats(&after)
			var pe *traces.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "t.parquet: corrupt Parquet file: "+c.want) {
				t.Errorf("%s, strict=%v: %v", c.name, opt.Strict, err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
				t.Errorf("%s: %d MiB allocated", c.name, grew>>20)
			}
		}
	}
}

// A nested column whose row group claims more levels than
// maxNestedLevels is refused before any is read: run-length encoded
// levels let a few bytes claim billions, which the reader would hold.
func TestNestedLevelsCapped(t *testing.T) {
	data := parquetBytes(t, depJobs(), nil)
	defer func(n int64) { maxNestedLevels = n }(maxNestedLevels)
	maxNestedLevels = 4 // depJobs has 6 levels: one a job, three for c
	_, _, err := readParquet(t, data, traces.Options{})
	want := "t.parquet:1: field depends_on: reading the Parquet file (row group 1): 6 levels in one row group, more than the reader's limit of 4 for a nested column"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	maxNestedLevels = 6
	if _, _, err := readParquet(t, data, traces.Options{}); err != nil {
		t.Errorf("at the cap: %v", err)
	}
}
