package native

import (
	"bytes"
	"errors"
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
