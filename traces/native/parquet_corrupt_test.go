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

// Snappy data that does not decompress makes the library panic while the
// rows are read: that is a bad input like any other corruption, a
// *traces.ParseError naming the file (the CLI's exit 2), in both modes.
func TestCorruptSnappyIsBadInput(t *testing.T) {
	data := parquetBytes(t, benchJobs(50), nil)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(0) // id: a page of Snappy data
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), data...)
	mid := col.DataPageOffset() + col.TotalCompressedSize()/2
	for i := mid; i < mid+3; i++ {
		bad[i] ^= 0xA5
	}
	for _, opt := range []traces.Options{{Strict: true}, {}} {
		_, _, err := readParquet(t, bad, opt)
		var pe *traces.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "t.parquet: corrupt Parquet file: snappy: corrupt input") {
			t.Errorf("strict=%v: %T %v", opt.Strict, err, err)
		}
	}
}

// A footer that claims a list of 46 million elements in a few bytes
// (fuzzing found two: the library made the list's room, 738 MB, before
// reading an element, and a worker under a memory limit died) is refused
// before the library decodes it, without that allocation. The second
// hides the list behind a list header stating other elements: the
// library reads a row group's elements as row groups whatever the header
// states, so the footer is read as the library reads it.
func TestFooterListLengthIsChecked(t *testing.T) {
	data := parquetBytes(t, benchJobs(3), nil)
	head := []byte{
		0x15, 0x02, // 1: version, i32 1
		0x19, 0x0c, // 2: schema, an empty list of structs
		0x16, 0x06, // 3: num_rows, i64 3
	}
	huge := []byte{0xfc, 0x80, 0xcf, 0xf7, 0x15} // a list of 46,000,000 structs
	for _, c := range []struct {
		name   string
		footer []byte
	}{
		{"a list of 46 million row groups", append(append(append(head, 0x19), huge...), 0, 0, 0, 0)},
		// 4: row_groups, stated as one double: the library reads one row
		// group, whose field 1 (columns) claims 46 million column chunks
		{"behind a list of doubles", append(append(append(head, 0x19, 0x17, 0x19), huge...), make([]byte, 8)...)},
	} {
		body := data[:len(data)-8-int(binary.LittleEndian.Uint32(data[len(data)-8:]))]
		bad := append(append([]byte(nil), body...), c.footer...)
		bad = binary.LittleEndian.AppendUint32(bad, uint32(len(c.footer)))
		bad = append(bad, "PAR1"...)

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := readParquet(t, bad, traces.Options{Strict: true})
		runtime.ReadMemStats(&after)
		want := "t.parquet: corrupt Parquet file: file metadata: a list of 46000000 elements in the "
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v\nwant %s…", c.name, err, want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("%s: reading it allocated %d MiB", c.name, grew>>20)
		}
	}
}
